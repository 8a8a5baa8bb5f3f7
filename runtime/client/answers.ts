/**
 * Reading an answer: the body by its declared (or actual) media type, our
 * envelope conventions, success or `ApiError`.
 */
import { ApiError, TransportError, type UnknownErrorBody } from './errors.js';
import type { Answer } from './exchange.js';
import { isRecord } from './serialize.js';
import type { ApiResponse, ConventionsSpec, OperationSpec, ResponseContentSpec, ResponseKind } from './types.js';

const BODY_EXCERPT_LENGTH = 200;

/** How a body is read: by the declared media type its Content-Type matches, else by the Content-Type itself. */
export function responseKind(contentType: string | null, declared: readonly ResponseContentSpec[] | undefined): ResponseKind {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (declared !== undefined && declared.length > 0) {
    const match = declared.find(([mediaType]) => type !== '' && mediaTypeMatches(mediaType, type));
    if (match !== undefined) return match[1];
    const kinds = new Set(declared.map(([, kind]) => kind));
    if (kinds.size === 1) return declared[0]![1];
  }
  if (type === '') return 'json';
  if (type === 'application/json' || type.endsWith('+json') || /\/(.*[.-])?json$/.test(type)) return 'json';
  if (type.startsWith('text/') || type === 'application/xml' || type.endsWith('+xml') || type === 'application/x-www-form-urlencoded') return 'text';
  return 'binary';
}

/** The declared contents for a status: exact, else its range (`2XX`), else `default`. */
export function declaredFor(spec: OperationSpec, status: number): readonly ResponseContentSpec[] | undefined {
  const responses = spec.responses;
  if (responses === undefined) return undefined;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses['default'];
}

/** Whether a status is a success: any 2xx, or a 1xx/3xx status the operation declares. */
function isSuccessStatus(spec: OperationSpec, status: number): boolean {
  if (status >= 200 && status <= 299) return true;
  if (status >= 400) return false;
  return spec.responses !== undefined && (spec.responses[String(status)] !== undefined || spec.responses[`${String(status)[0]}XX`] !== undefined);
}

/** Checks a decoded body against the document (only with `validateResponses`). */
export type Validate = (status: number, body: unknown, failed: boolean) => Promise<void>;

/** The answer as the caller sees it: the decoded success body, or an error thrown. */
export async function readAnswer(spec: OperationSpec, answer: Answer, conventions: ConventionsSpec, validate: Validate | undefined): Promise<ApiResponse> {
  const name = spec.name;
  const { status, headers, bytes } = answer;
  const excerpt = (): string => new TextDecoder().decode(bytes.subarray(0, BODY_EXCERPT_LENGTH * 4)).slice(0, BODY_EXCERPT_LENGTH);
  const invalid = (detail: string, cause?: unknown): TransportError =>
    new TransportError(name, 'invalid-body', `HTTP ${status} ${detail}`, { status, bodyExcerpt: excerpt(), ...(cause === undefined ? {} : { cause }) });
  let failed = !isSuccessStatus(spec, status);
  const declared = declaredFor(spec, status);

  // Our own conventions: every body is a JSON object envelope; `result: "error"` fails whatever the status.
  // (A status declaring only text or binary bodies, or a success declaring none, is read as declared.)
  const declaresJson = declared === undefined || declared.some(([, kind]) => kind === 'json');
  const envelope = failed ? conventions.bodyCodedErrors && (declaresJson || declared.length === 0) : conventions.successEnvelope && declaresJson;
  if (envelope) {
    if (bytes.length === 0 && spec.method === 'HEAD') return { status, headers, body: {} };
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch (error) {
      throw invalid('with a body that is not JSON', error);
    }
    if (!isRecord(body)) throw invalid('with a body that is not a JSON object');
    if (conventions.successEnvelope && body['result'] === 'error') failed = true;
    if (failed && conventions.bodyCodedErrors) {
      await validate?.(status, body, true);
      if (typeof body['code'] !== 'string' || typeof body['msg'] !== 'string') throw invalid('without an error code');
      throw new ApiError(name, status, body as unknown as UnknownErrorBody, headers);
    }
    if (!failed) {
      await validate?.(status, body, false);
      return { status, headers, body };
    }
    throw new ApiError(name, status, body, headers);
  }

  let body: unknown;
  if (bytes.length === 0 || spec.method === 'HEAD' || (declared !== undefined && declared.length === 0 && !failed)) {
    body = undefined;
  } else {
    const kind = responseKind(headers.get('content-type'), declared);
    if (kind === 'json') {
      try {
        body = JSON.parse(new TextDecoder().decode(bytes));
      } catch (error) {
        if (!failed) throw invalid('with a body that is not JSON', error);
        // An error page that is not the declared JSON (a proxy's HTML) is kept as text.
        body = new TextDecoder().decode(bytes);
      }
    } else if (kind === 'text') {
      body = new TextDecoder().decode(bytes);
    } else {
      body = new Blob([bytes as unknown as ArrayBuffer], { type: headers.get('content-type') ?? '' });
    }
    if (kind === 'json' && body !== undefined) await validate?.(status, body, failed);
  }
  if (failed) throw new ApiError(name, status, body, headers);
  return { status, headers, body };
}

/** Whether `mediaType` (possibly a wildcard like `image/*`, possibly with parameters) covers `actual` (parameters aside). */
export function mediaTypeMatches(mediaType: string, actual: string): boolean {
  if (mediaType === actual || mediaType === '*/*') return true;
  const semicolon = mediaType.indexOf(';');
  if (semicolon !== -1 && mediaType.slice(0, semicolon).trim() === (actual.split(';', 1)[0] ?? '').trim()) return true;
  return mediaType.endsWith('/*') && actual.startsWith(mediaType.slice(0, -1));
}
