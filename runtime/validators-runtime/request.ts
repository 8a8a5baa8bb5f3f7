/**
 * The request as a decoder reads it (`RawRequest`), its files, and the names
 * it holds that the operation does not take.
 */
import { isDeepField } from './fields.js';

export interface RawRequest {
  path: Record<string, string>;
  /** A field sent more than once arrives as an array. */
  query: Record<string, string | string[]>;
  /** Form or multipart text fields. */
  body: Record<string, string | string[]>;
  /** Request headers by lower-case name, as Node gives them (`IncomingMessage.headers`). */
  headers?: Record<string, string | string[] | undefined>;
  /** Cookies of the `Cookie` header by name, values percent-decoded; a cookie sent more than once arrives as an array. */
  cookies?: Record<string, string | string[]>;
  files?: { field: string; filename: string; contentType: string; data: Uint8Array }[];
  /** A whole request body (`RequestBodyModel.mode` `whole`): the parsed JSON value, the text of a text body, or the bytes of any other. */
  content?: { mediaType: string; value: unknown };
}

export interface DecodedFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

/** The one file sent in field `name`, or how many there were when not exactly one. */
export function singleFile(raw: RawRequest, name: string): DecodedFile | number {
  let found: DecodedFile | undefined;
  let count = 0;
  for (const file of raw.files ?? []) {
    if (file.field !== name) continue;
    count++;
    found = { filename: file.filename, contentType: file.contentType, data: file.data };
  }
  return count === 1 ? found! : count;
}

/**
 * Names in the body, query string or files that the operation does not take,
 * sorted and deduplicated. `deep` lists the names of `deepObject` parameters,
 * whose fields arrive as `name[key]`.
 */
export function unsupportedParameters(raw: RawRequest, known: ReadonlySet<string>, deep?: readonly string[]): string[] {
  let found: string[] | undefined;
  for (const name in raw.body) if (!known.has(name) && !isDeepField(name, deep)) (found ??= []).push(name);
  for (const name in raw.query) if (!known.has(name) && !isDeepField(name, deep)) (found ??= []).push(name);
  const files = raw.files;
  if (files !== undefined) for (let i = 0; i < files.length; i++) if (!known.has(files[i]!.field)) (found ??= []).push(files[i]!.field);
  if (found === undefined) return [];
  return [...new Set(found)].sort();
}

/**
 * `unsupportedParameters` for a decoder that counted the form and query
 * fields it read (`given`, each a parameter's own field). A request with no
 * more fields than those, and no file but of a known field, has none the
 * operation does not take: counting the fields costs less than looking each
 * name up in `known`, a hash of every name on every request.
 */
export function unsupportedFields(raw: RawRequest, known: ReadonlySet<string>, given: number): string[] {
  let fields = 0;
  for (const _ in raw.body) fields++;
  for (const _ in raw.query) fields++;
  const files = raw.files;
  if (fields === given && (files === undefined || files.length === 0)) return [];
  return unsupportedParameters(raw, known);
}

/** Every file sent in field `name`, in order. */
export function fileList(raw: RawRequest, name: string): DecodedFile[] {
  const found: DecodedFile[] = [];
  for (const file of raw.files ?? []) {
    if (file.field === name) found.push({ filename: file.filename, contentType: file.contentType, data: file.data });
  }
  return found;
}
