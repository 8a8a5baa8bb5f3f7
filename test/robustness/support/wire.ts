/**
 * Raw HTTP requests for the fuzz suite, built byte by byte so they can carry
 * what a well-behaved client never sends (broken percent-escapes, invalid
 * UTF-8, NUL, duplicate fields), sent with plain `fetch`, and the check every
 * answer must pass: a JSON envelope, never a 5xx.
 */

/** A query or form field as it appears on the wire: name and value already percent-encoded. */
export interface Field {
  name: string;
  value: string;
}

export interface FilePart {
  field: string;
  filename: string;
  data: Buffer;
}

export type Body =
  | { kind: 'none' }
  | { kind: 'form'; fields: Field[] }
  | { kind: 'multipart'; fields: Field[]; files: FilePart[] }
  /** Exactly these bytes with this Content-Type (none when undefined). */
  | { kind: 'raw'; contentType: string | undefined; data: string };

export interface FuzzRequest {
  method: string;
  /** Path under the API base, percent-encoded (`/messages/101`). */
  path: string;
  query: Field[];
  body: Body;
  /** The Authorization header; none when undefined. */
  authorization: string | undefined;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** `fields` joined as `a=1&b=2`, as both the query string and a form body carry them. */
export function joinFields(fields: Field[]): string {
  return fields.map((f) => `${f.name}=${f.value}`).join('&');
}

/**
 * Percent-encoded text to bytes, leniently: a valid `%XX` becomes that byte
 * (so `%FF` is the raw byte 0xFF), anything else is kept as its UTF-8 bytes.
 * Used for multipart parts, which carry bytes rather than escapes.
 */
export function percentBytes(text: string): Buffer {
  const chunks: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(/%[0-9A-Fa-f]{2}/g)) {
    chunks.push(Buffer.from(text.slice(last, match.index), 'utf8'), Buffer.from([parseInt(match[0].slice(1), 16)]));
    last = match.index + 3;
  }
  chunks.push(Buffer.from(text.slice(last), 'utf8'));
  return Buffer.concat(chunks);
}

const BOUNDARY = '----teamchat-fuzz-7d1c';

function multipart(fields: Field[], files: FilePart[]): Buffer {
  const chunks: Buffer[] = [];
  const part = (disposition: Buffer, extra: string, data: Buffer): void => {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="`), disposition, Buffer.from(`"${extra}\r\n\r\n`), data, Buffer.from('\r\n'));
  };
  for (const field of fields) part(percentBytes(field.name), '', percentBytes(field.value));
  for (const file of files) {
    part(Buffer.from(file.field), `; filename="${file.filename}"\r\nContent-Type: application/octet-stream`, file.data);
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function encodeBody(body: Body): { contentType?: string; data?: string | Buffer } {
  switch (body.kind) {
    case 'none':
      return {};
    case 'form':
      return { contentType: 'application/x-www-form-urlencoded', data: joinFields(body.fields) };
    case 'multipart':
      return { contentType: `multipart/form-data; boundary=${BOUNDARY}`, data: multipart(body.fields, body.files) };
    case 'raw':
      return { ...(body.contentType !== undefined && { contentType: body.contentType }), data: body.data };
  }
}

export function requestUrl(baseUrl: string, request: FuzzRequest): string {
  const query = joinFields(request.query);
  return `${baseUrl}/api/v1${request.path}${query === '' ? '' : `?${query}`}`;
}

export async function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const { contentType, data } = encodeBody(request.body);
  const headers: Record<string, string> = {};
  if (contentType !== undefined) headers['content-type'] = contentType;
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  // A Buffer body keeps fetch from adding a Content-Type of its own.
  const payload = data === undefined ? undefined : typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const response = await fetch(requestUrl(baseUrl, request), {
    method: request.method,
    headers,
    ...(payload !== undefined && { body: new Uint8Array(payload) }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

export type Envelope = { result: 'success'; msg: string } | { result: 'error'; msg: string; code: string };

/** The answer's envelope, or why it is not a well-formed one. */
export function envelopeOf(answer: Answer): Envelope | string {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (!/^application\/json\b/.test(answer.contentType)) return `Content-Type ${answer.contentType || '(none)'}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return 'a body that is not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'a JSON body that is not an object';
  const { result, msg, code } = body as Record<string, unknown>;
  if (typeof msg !== 'string') return '`msg` missing or not a string';
  if (result === 'success' && answer.status === 200) return { result, msg };
  if (result === 'error' && typeof code === 'string' && answer.status >= 400) return { result, msg, code };
  return `result ${JSON.stringify(result)} and code ${JSON.stringify(code)} with status ${answer.status}`;
}

/** A request as a curl command line, for reproducing a failure by hand. */
export function asCurl(baseUrl: string, request: FuzzRequest): string {
  const { contentType, data } = encodeBody(request.body);
  const quote = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  const parts = ['curl', '-sS', '-X', request.method, quote(requestUrl(baseUrl, request))];
  if (request.authorization !== undefined) parts.push('-H', quote(`Authorization: ${request.authorization}`));
  if (contentType !== undefined) parts.push('-H', quote(`Content-Type: ${contentType}`));
  if (data !== undefined) {
    const text = typeof data === 'string' ? data : data.toString('latin1');
    parts.push('--data-binary', text.length > 400 ? `<${text.length} bytes starting ${quote(text.slice(0, 200))}>` : quote(text));
  }
  return parts.join(' ');
}
