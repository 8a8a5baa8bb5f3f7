/**
 * Parameter serialisation: OpenAPI `style`/`explode` in every location
 * (RFC 6570 shapes), values percent-encoded to RFC 3986 unreserved
 * characters (docs/decisions/0017-client-for-any-document.md).
 */
import type { ParamSpec, ParamStyle } from './types.js';

/** Characters RFC 3986 reserves (gen-delims and sub-delims): sent as they are with `allowReserved`. */
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/**
 * Percent-encodes UTF-8 text, leaving only RFC 3986 unreserved characters
 * (`A-Z a-z 0-9 - . _ ~`), plus the reserved ones when `allowReserved`.
 * Percent signs are always encoded.
 */
export function encodeText(text: string, allowReserved = false): string {
  let out = '';
  for (const char of text) {
    if (/[A-Za-z0-9\-._~]/.test(char) || (allowReserved && RESERVED.test(char))) out += char;
    else out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/** A scalar as text: numbers in decimal, booleans as `true`/`false`, null as empty; anything else as JSON. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** Object entries with a value (undefined skipped), as text. */
function objectEntries(value: Record<string, unknown>): [string, string][] {
  return Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, scalarText(v)]);
}

type Shape = { kind: 'empty' } | { kind: 'scalar'; text: string } | { kind: 'array'; items: string[] } | { kind: 'object'; entries: [string, string][] };

function shapeOf(value: unknown): Shape {
  if (value === null) return { kind: 'empty' };
  if (Array.isArray(value)) return { kind: 'array', items: value.filter((v) => v !== undefined).map(scalarText) };
  if (isRecord(value) && !(value instanceof Date)) return { kind: 'object', entries: objectEntries(value) };
  return { kind: 'scalar', text: scalarText(value) };
}

/**
 * A path parameter's text for its `{name}` placeholder: `simple`
 * (`blue,black`), `label` (`.blue.black` exploded, `.blue,black` not) or
 * `matrix` (`;color=blue;color=black` exploded, `;color=blue,black` not).
 * Values are percent-encoded; delimiters are not.
 */
export function serializePath(name: string, value: unknown, style: ParamStyle = 'simple', explode = false): string {
  if (style === 'simple') return simpleText(value, explode, encodeText);
  const shape = shapeOf(value);
  const e = (text: string) => encodeText(text);
  const n = e(name);
  const prefix = style === 'label' ? '.' : style === 'matrix' ? ';' : '';
  switch (shape.kind) {
    case 'empty':
      return style === 'matrix' ? `;${n}` : prefix;
    case 'scalar':
      return style === 'matrix' ? `;${n}=${e(shape.text)}` : prefix + e(shape.text);
    case 'array': {
      if (style === 'matrix') return explode ? shape.items.map((item) => `;${n}=${e(item)}`).join('') : `;${n}=${shape.items.map(e).join(',')}`;
      return prefix + shape.items.map(e).join(explode && style === 'label' ? '.' : ',');
    }
    case 'object': {
      if (style === 'matrix') {
        return explode ? shape.entries.map(([k, v]) => `;${e(k)}=${e(v)}`).join('') : `;${n}=${shape.entries.map(([k, v]) => `${e(k)},${e(v)}`).join(',')}`;
      }
      const sep = explode && style === 'label' ? '.' : ',';
      return prefix + (explode ? shape.entries.map(([k, v]) => `${e(k)}=${e(v)}`).join(sep) : shape.entries.map(([k, v]) => `${e(k)},${e(v)}`).join(sep));
    }
  }
}

/**
 * A query parameter as `name=value` pairs (already encoded, to join with
 * `&`): `form` (`color=blue&color=black` exploded, `color=blue,black` not),
 * `spaceDelimited` (`color=blue%20black`), `pipeDelimited`
 * (`color=blue|black`), `deepObject` (`color[R]=100&color[G]=200`, nested
 * `items[0][price]=p`, lists `expand[0]=a`). An
 * exploded object under `form` spreads into its own keys (`R=100&G=200`).
 * With `allowReserved`, reserved characters in values go unencoded.
 */
export function serializeQuery(name: string, value: unknown, style: ParamStyle = 'form', explode: boolean = style === 'form', allowReserved = false): string[] {
  if (style === 'deepObject' && (Array.isArray(value) || (isRecord(value) && !(value instanceof Date)))) {
    return deepObjectPairs(encodeText(name), value as Record<string, unknown>, (text) => encodeText(text, allowReserved));
  }
  return formPairs(name, value, explode, allowReserved, delimiter(style));
}

/** `form` style pairs (other delimited styles differ only in the delimiter of lists and objects). */
function formPairs(name: string, value: unknown, explode: boolean, allowReserved: boolean | undefined, delimiter = ','): string[] {
  const shape = shapeOf(value);
  const n = encodeText(name);
  const v = (text: string) => encodeText(text, allowReserved);
  switch (shape.kind) {
    case 'empty':
      return [`${n}=`];
    case 'scalar':
      return [`${n}=${v(shape.text)}`];
    case 'array': {
      if (explode) return shape.items.map((item) => `${n}=${v(item)}`);
      return [`${n}=${shape.items.map(v).join(delimiter)}`];
    }
    case 'object': {
      if (explode) return shape.entries.map(([k, text]) => `${encodeText(k)}=${v(text)}`);
      return [`${n}=${shape.entries.map(([k, text]) => `${v(k)}${delimiter}${v(text)}`).join(delimiter)}`];
    }
  }
}

function delimiter(style: ParamStyle): string {
  return style === 'spaceDelimited' ? '%20' : style === 'pipeDelimited' ? '|' : ',';
}

/**
 * `deepObject` in bracket notation, nested to any depth: `name[key]=value`,
 * objects as `name[a][b]=value`, lists indexed `name[a][0]=x` (as Stripe's
 * libraries write them), `null` as empty text (`name[a]=`). An empty list or
 * object writes nothing (docs/decisions/0020-form-fields-by-encoding.md).
 */
function deepObjectPairs(prefix: string, value: Record<string, unknown> | readonly unknown[], encode: (text: string) => string, pairs: string[] = []): string[] {
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    const at = `${prefix}[${encodeText(key)}]`;
    if (Array.isArray(item) || (isRecord(item) && !(item instanceof Date))) deepObjectPairs(at, item as Record<string, unknown>, encode, pairs);
    else pairs.push(`${at}=${encode(scalarText(item))}`);
  }
  return pairs;
}

/** A header parameter's value (`simple`): `blue,black`; objects `R,100,G,200`, exploded `R=100,G=200`. Not percent-encoded. */
export function serializeHeader(value: unknown, explode = false): string {
  return simpleText(value, explode, (text) => text);
}

/** `simple` style: `blue,black`; objects `R,100,G,200`, exploded `R=100,G=200`; each text through `encode`. */
function simpleText(value: unknown, explode: boolean, encode: (text: string) => string): string {
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'empty':
      return '';
    case 'scalar':
      return encode(shape.text);
    case 'array':
      return shape.items.map(encode).join(',');
    case 'object':
      return shape.entries.map(([k, v]) => `${encode(k)}${explode ? '=' : ','}${encode(v)}`).join(',');
  }
}

/**
 * A cookie parameter as `name=value` pairs (to join with `; `), `form`
 * style: `color=blue,black`; exploded arrays repeat the cookie, exploded
 * objects spread into their own cookies. Values are percent-encoded.
 */
export function serializeCookie(name: string, value: unknown, explode = true): string[] {
  const shape = shapeOf(value);
  const n = encodeText(name);
  switch (shape.kind) {
    case 'empty':
      return [`${n}=`];
    case 'scalar':
      return [`${n}=${encodeText(shape.text)}`];
    case 'array':
      return explode ? shape.items.map((item) => `${n}=${encodeText(item)}`) : [`${n}=${shape.items.map((i) => encodeText(i)).join(',')}`];
    case 'object':
      return explode
        ? shape.entries.map(([k, v]) => `${encodeText(k)}=${encodeText(v)}`)
        : [`${n}=${shape.entries.map(([k, v]) => `${encodeText(k)},${encodeText(v)}`).join(',')}`];
  }
}

/** The parts of a request that parameters other than body fields go into. */
export interface ParamTarget {
  path: string;
  /** Encoded `name=value` pairs. */
  query: string[];
  headers: Record<string, string>;
  /** `name=value` pairs of the Cookie header. */
  cookies: string[];
}

/**
 * Writes one parameter's value where its location says. Each location is its
 * own writer, which the generated operation names, so a bundle keeps only
 * the locations (and styles) its operations use.
 */
export type ParamWriter = (request: ParamTarget, param: ParamSpec, value: unknown) => void;

/** A path parameter in the `simple` style (or JSON text) into its `{name}` placeholder. */
export const pathParam: ParamWriter = (request, param, value) => {
  const text = param.encoding === 'json' ? encodeText(JSON.stringify(value)) : simpleText(value, param.explode ?? false, encodeText);
  request.path = request.path.split(`{${param.name}}`).join(text);
};

/** A path parameter in the `label` or `matrix` style. */
export const styledPathParam: ParamWriter = (request, param, value) => {
  request.path = request.path.split(`{${param.name}}`).join(serializePath(param.name, value, param.style, param.explode ?? false));
};

/** A query parameter in the `form` style (or JSON text). */
export const queryParam: ParamWriter = (request, param, value) => {
  if (param.encoding === 'json') request.query.push(`${encodeText(param.name)}=${encodeText(JSON.stringify(value), param.allowReserved)}`);
  else request.query.push(...formPairs(param.name, value, param.explode ?? true, param.allowReserved));
};

/** A query parameter in the `spaceDelimited`, `pipeDelimited` or `deepObject` style. */
export const styledQueryParam: ParamWriter = (request, param, value) => {
  request.query.push(...serializeQuery(param.name, value, param.style, param.explode ?? false, param.allowReserved));
};

export const headerParam: ParamWriter = (request, param, value) => {
  request.headers[param.name] = param.encoding === 'json' ? JSON.stringify(value) : serializeHeader(value, param.explode ?? false);
};

export const cookieParam: ParamWriter = (request, param, value) => {
  if (param.encoding === 'json') request.cookies.push(`${encodeText(param.name)}=${encodeText(JSON.stringify(value))}`);
  else request.cookies.push(...serializeCookie(param.name, value, param.explode ?? true));
};

/** A plain object (not an array, a Blob or null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Blob);
}
