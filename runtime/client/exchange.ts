/**
 * One request on the wire: fetch with a time limit and the caller's signal,
 * redirects followed here so that no credential reaches another origin
 * (docs/decisions/0023-redirects.md), the body read as bytes.
 */
import { TransportError } from './errors.js';

export interface Answer {
  status: number;
  headers: Headers;
  /** The body's bytes (empty for none). */
  bytes: Uint8Array;
}

/**
 * One request and its body's bytes. `timeoutMs` is the time left for it,
 * `budgetMs` the call's whole budget (named in the timeout message).
 */
export async function exchange(
  name: string,
  fetchImpl: typeof globalThis.fetch,
  url: string,
  request: RequestInit,
  timeoutMs: number | undefined,
  budgetMs: number | undefined,
  signal: AbortSignal | undefined,
  redirects: RedirectPolicy,
): Promise<Answer> {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);

  try {
    // A signal that aborted before the request (while credentials resolved) stops it here.
    controller.signal.throwIfAborted();
    const response = await fetchFollowing(name, fetchImpl, url, { ...request, signal: controller.signal }, redirects);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, bytes };
  } catch (error) {
    if (error instanceof TransportError) throw error;
    if (timedOut) throw new TransportError(name, 'timeout', `no answer within ${budgetMs ?? timeoutMs} ms`, { cause: error });
    if (controller.signal.aborted) throw new TransportError(name, 'aborted', 'request aborted', { cause: error });
    throw new TransportError(name, 'network', `request failed: ${describe(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** How one call treats redirects. */
export interface RedirectPolicy {
  /** Whether the operation documents this 3xx status: it is then the answer, never followed. */
  documented(status: number): boolean;
  crossOrigin: 'refuse' | 'follow-without-credentials';
  /** Lower-cased names of the headers that carry a credential of some scheme of the document. */
  headers: readonly string[];
  /** Names of the query parameters that carry an API key. */
  query: readonly string[];
}

/** The statuses fetch itself would follow. */
const REDIRECT_STATUSES: ReadonlySet<number> = /* @__PURE__ */ new Set([301, 302, 303, 307, 308]);
/** fetch's own limit. */
const MAX_REDIRECTS = 20;
/** Headers that describe a request body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS: ReadonlySet<string> = /* @__PURE__ */ new Set(['content-type', 'content-encoding', 'content-language', 'content-location', 'content-length']);

/**
 * fetch with `redirect: 'manual'`, following redirects here so that no
 * credential reaches another origin: same-origin redirects are followed as
 * they are; a cross-origin one is refused, or followed with every credential
 * removed (`policy.crossOrigin`); a documented one is returned.
 */
async function fetchFollowing(name: string, fetchImpl: typeof globalThis.fetch, url: string, request: RequestInit, policy: RedirectPolicy): Promise<Response> {
  const origin = new URL(url).origin;
  let current = url;
  let init: RequestInit & { headers: Record<string, string> } = { ...request, headers: { ...(request.headers as Record<string, string> | undefined) }, redirect: 'manual' };
  let stripped = false;
  for (let hops = 0; ; hops++) {
    const response = await fetchImpl(current, init);
    if (response.type === 'opaqueredirect') return followHidden(name, fetchImpl, current, init, policy, origin, stripped);
    if (!REDIRECT_STATUSES.has(response.status) || policy.documented(response.status)) return response;
    const location = response.headers.get('location');
    if (location === null) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hops === MAX_REDIRECTS) throw new TransportError(name, 'redirect', `more than ${MAX_REDIRECTS} redirects`, { status: response.status });
    const target = new URL(location, current);
    if (target.origin !== origin && !stripped) {
      if (policy.crossOrigin === 'refuse') {
        throw new TransportError(
          name,
          'redirect',
          `HTTP ${response.status} redirect to another origin (${target.origin}) not followed; set crossOriginRedirects: 'follow-without-credentials' to follow it without credentials`,
          { status: response.status },
        );
      }
      init = { ...init, headers: withoutCredentialHeaders(init.headers, policy) };
      stripped = true;
    }
    if (stripped) for (const key of policy.query) target.searchParams.delete(key);
    init = redirectedRequest(init, response.status);
    current = target.href;
  }
}

/** The request a redirect asks for: 303 (and 301/302 after a POST) become a GET without body, as fetch does. */
function redirectedRequest<R extends RequestInit & { headers: Record<string, string> }>(init: R, status: number): R {
  const method = (init.method ?? 'GET').toUpperCase();
  if (!((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST'))) return init;
  const headers = Object.fromEntries(Object.entries(init.headers).filter(([key]) => !BODY_HEADERS.has(key.toLowerCase())));
  const { body: _body, ...rest } = init;
  return { ...rest, method: 'GET', headers } as R;
}

function withoutCredentialHeaders(headers: Record<string, string>, policy: RedirectPolicy): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => !policy.headers.includes(key.toLowerCase())));
}

/**
 * A browser hides a manual redirect's status and target. Only a GET or HEAD
 * whose credentials fetch itself keeps from other origins (`Authorization`,
 * or none) is sent again with `redirect: 'follow'`; the final URL then must
 * be of the same origin unless the policy follows other origins.
 */
async function followHidden(
  name: string,
  fetchImpl: typeof globalThis.fetch,
  url: string,
  init: RequestInit & { headers: Record<string, string> },
  policy: RedirectPolicy,
  origin: string,
  stripped: boolean,
): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const portable = Object.keys(init.headers).some((key) => key.toLowerCase() !== 'authorization' && policy.headers.includes(key.toLowerCase()));
  const inQuery = policy.query.some((key) => new URL(url).searchParams.has(key));
  if ((method !== 'GET' && method !== 'HEAD') || portable || inQuery) {
    throw new TransportError(
      name,
      'redirect',
      'the server answered with a redirect whose target this fetch hides (a browser); not followed, since the request carries credentials or a body',
    );
  }
  const response = await fetchImpl(url, { ...init, redirect: 'follow' });
  if (!stripped && policy.crossOrigin === 'refuse' && response.redirected && response.url !== '' && new URL(response.url).origin !== origin) {
    await response.body?.cancel().catch(() => undefined);
    throw new TransportError(name, 'redirect', `redirected to another origin (${new URL(response.url).origin}); not used`, { status: response.status });
  }
  return response;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
