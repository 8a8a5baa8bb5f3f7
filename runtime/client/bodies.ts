/**
 * Request bodies: form fields, multipart parts, and whole bodies as JSON,
 * text, a form, multipart or bytes. Each is its own function, which the
 * generated operation names, so a bundle keeps only the kinds it sends.
 */
import { mediaTypeMatches } from './answers.js';
import { isRecord, scalarText, serializeQuery } from './serialize.js';
import type { BodySpec, ParamEncoding, ParamSpec, UploadFile } from './types.js';

/** What fetch takes as a body (`BodyInit`, named through `RequestInit` so that Node's types without the DOM lib have it too). */
export type RequestBody = NonNullable<RequestInit['body']>;

/** A body and the Content-Type to send it with; undefined when fetch writes its own (FormData's, boundary included). */
export interface EncodedBody {
  body: RequestBody;
  contentType: string | undefined;
}

/** The `in: 'body'` parameters of a call, with their values (absent ones left out); undefined when there is no body. */
export type FieldsBody = (fields: readonly (readonly [ParamSpec, unknown])[]) => EncodedBody | undefined;

/**
 * A whole body in one declared media type. `contentType` is the one to send
 * (undefined: the kind's default); `fields`, for a form or multipart media
 * type, what its Encoding Object says of each field.
 */
export type WholeBodyWriter = (value: unknown, contentType: string | undefined, fields: readonly ParamSpec[] | undefined) => EncodedBody;

/** A body sent whole, in the chosen (or first) media type its writer encodes; undefined for an absent optional body. */
export function wholeBody(name: string, spec: BodySpec, value: unknown, contentType: string | undefined): EncodedBody | undefined {
  if (value === undefined) {
    if (spec.required) throw new TypeError(`${name}: missing request body "${spec.param}"`);
    return undefined;
  }
  const wanted = contentType?.toLowerCase();
  const chosen = wanted === undefined ? spec.contents[0] : spec.contents.find((c) => c.mediaType === wanted) ?? spec.contents.find((c) => mediaTypeMatches(c.mediaType, wanted));
  if (chosen === undefined) {
    throw new TypeError(`${name}: the request body cannot be sent as "${contentType}" (declared: ${spec.contents.map((c) => c.mediaType).join(', ')})`);
  }
  // A wildcard (`image/*`) is not a media type to send: the caller's choice, a Blob's own type, or bytes.
  const declared = contentType !== undefined && !contentType.includes('*') ? contentType : chosen.mediaType.includes('*') ? undefined : chosen.mediaType;
  return chosen.write(value, declared, chosen.fields);
}

/** Fields as `application/x-www-form-urlencoded`. */
export const formFields: FieldsBody = (fields) => {
  if (fields.length === 0) return undefined;
  const form = new URLSearchParams();
  const styled: string[] = [];
  for (const [param, value] of fields) appendFormField(form, styled, param, value);
  return { body: joinForm(form, styled), contentType: 'application/x-www-form-urlencoded' };
};

/** Fields as `multipart/form-data` parts (files, JSON parts, text). */
export const multipartFields: FieldsBody = (fields) => {
  const parts: Part[] = [];
  for (const [param, value] of fields) appendPart(parts, param, value);
  return multipartEncode(parts);
};

export const jsonBody: WholeBodyWriter = (value, contentType) => ({ body: JSON.stringify(value), contentType: contentType ?? 'application/json' });

export const textBody: WholeBodyWriter = (value, contentType) => ({ body: scalarText(value), contentType: contentType ?? 'text/plain' });

/** An object as a form: its fields as the Encoding Object says, or each key as a field (objects as JSON text). */
export const formBody: WholeBodyWriter = (value, contentType, fields) => {
  const form = new URLSearchParams();
  const styled: string[] = [];
  const record = isRecord(value) ? value : {};
  if (fields !== undefined) {
    for (const field of fields) if (record[field.name] !== undefined) appendFormField(form, styled, field, record[field.name]);
  } else {
    for (const [key, item] of Object.entries(record)) {
      if (item === undefined) continue;
      for (const text of isRecord(item) ? [JSON.stringify(item)] : fieldTexts(item, 'plain')) form.append(key, text);
    }
  }
  return { body: joinForm(form, styled), contentType: contentType ?? 'application/x-www-form-urlencoded' };
};

/** An object as multipart parts: its fields as the Encoding Object says, or each key as a part (files, JSON parts, text). */
export const multipartBody: WholeBodyWriter = (value, _contentType, fields) => {
  const parts: Part[] = [];
  const record = isRecord(value) ? value : {};
  if (fields !== undefined) {
    for (const field of fields) if (record[field.name] !== undefined) appendPart(parts, field, record[field.name]);
  } else {
    for (const [key, item] of Object.entries(record)) {
      if (item === undefined) continue;
      for (const part of Array.isArray(item) ? item : [item]) {
        if (part instanceof Blob || isUploadFile(part)) parts.push(filePart(key, part, undefined));
        else parts.push(isRecord(part) ? { name: key, text: JSON.stringify(part), contentType: 'application/json' } : { name: key, text: scalarText(part) });
      }
    }
  }
  return multipartEncode(parts);
};

/** Bytes as they are (a Blob, bytes, or text as UTF-8). */
export const binaryBody: WholeBodyWriter = (value, contentType) => {
  const bytes = value instanceof Blob || value instanceof ArrayBuffer || value instanceof Uint8Array ? value : new TextEncoder().encode(scalarText(value));
  const own = value instanceof Blob && value.type !== '' ? value.type : undefined;
  return { body: bytes as RequestBody, contentType: contentType ?? own ?? 'application/octet-stream' };
};

function joinForm(form: URLSearchParams, styled: readonly string[]): string {
  return [form.toString(), ...styled].filter((text) => text !== '').join('&');
}

/** A urlencoded field: spread by its style into `styled` (encoded pairs), else its texts into `form`. */
function appendFormField(form: URLSearchParams, styled: string[], param: ParamSpec, value: unknown): void {
  if (param.style !== undefined) styled.push(...serializeQuery(param.name, value, param.style, param.explode ?? param.style === 'form', param.allowReserved));
  else for (const text of fieldTexts(value, param.encoding, param.explode)) form.append(param.name, text);
}

/**
 * A form field's texts: JSON text (one per element for an exploded JSON
 * list), or the value as text (arrays: one field per item, objects as JSON).
 */
function fieldTexts(value: unknown, encoding: ParamEncoding, explode?: boolean): string[] {
  if (encoding === 'json') return explode === true && Array.isArray(value) ? value.filter((v) => v !== undefined).map((v) => JSON.stringify(v)) : [JSON.stringify(value)];
  if (Array.isArray(value)) return value.filter((v) => v !== undefined).map(scalarText);
  return [value === null ? 'null' : scalarText(value)];
}

/** One part of a multipart body: a text field (with its media type, when declared), or a file. */
type Part = { readonly name: string; readonly text: string; readonly contentType?: string } | { readonly name: string; readonly file: Blob; readonly filename: string };

/**
 * A multipart field's parts (OpenAPI's Encoding Object): files; JSON text
 * typed `application/json` (or the declared part type), one part per element
 * when exploded; a value spread by its style, one part per field; else text,
 * one part per list element, typed when the document declares a type.
 */
function appendPart(parts: Part[], param: ParamSpec, value: unknown): void {
  if (param.encoding === 'file') {
    for (const file of Array.isArray(value) ? value : [value]) parts.push(filePart(param.name, file as UploadFile | Blob, param.contentType));
  } else if (param.encoding === 'plain' && param.style !== undefined) {
    for (const pair of serializeQuery(param.name, value, param.style, param.explode ?? param.style === 'form')) {
      const equals = pair.indexOf('=');
      parts.push({ name: decodeURIComponent(pair.slice(0, equals)), text: decodeURIComponent(pair.slice(equals + 1)) });
    }
  } else {
    const contentType = param.contentType ?? (param.encoding === 'json' ? 'application/json' : undefined);
    for (const text of fieldTexts(value, param.encoding, param.explode)) parts.push(contentType === undefined ? { name: param.name, text } : { name: param.name, text, contentType });
  }
}

function filePart(field: string, file: UploadFile | Blob, partType: string | undefined): Part {
  if (file instanceof Blob) return { name: field, file, filename: file instanceof File ? file.name : field };
  const type = file.contentType ?? partType ?? 'application/octet-stream';
  const blob =
    file.data instanceof Blob && file.contentType === undefined && (file.data.type !== '' || partType === undefined)
      ? file.data
      : new Blob([file.data] as unknown as ConstructorParameters<typeof Blob>[0], { type });
  return { name: field, file: blob, filename: file.filename };
}

/**
 * The parts as a body: FormData (fetch writes its Content-Type) unless a text
 * part has a media type of its own, which FormData cannot give without making
 * the part a file; then the body is written here, boundary and all.
 */
function multipartEncode(parts: readonly Part[]): EncodedBody {
  if (!parts.some((part) => 'text' in part && part.contentType !== undefined)) {
    const form = new FormData();
    for (const part of parts) {
      if ('text' in part) form.append(part.name, part.text);
      else form.append(part.name, part.file, part.filename);
    }
    return { body: form, contentType: undefined };
  }
  const boundary = `----teamchat${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const quoted = (text: string): string => text.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  const chunks: (string | Blob)[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${quoted(part.name)}"${'file' in part ? `; filename="${quoted(part.filename)}"` : ''}`;
    const type = 'file' in part ? part.file.type || 'application/octet-stream' : part.contentType;
    chunks.push(`--${boundary}\r\n${disposition}\r\n${type === undefined ? '' : `Content-Type: ${type}\r\n`}\r\n`);
    chunks.push('file' in part ? part.file : part.text, '\r\n');
  }
  chunks.push(`--${boundary}--\r\n`);
  return { body: new Blob(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function isUploadFile(value: unknown): value is UploadFile {
  return isRecord(value) && typeof value['filename'] === 'string' && (value['data'] instanceof Blob || value['data'] instanceof Uint8Array);
}
