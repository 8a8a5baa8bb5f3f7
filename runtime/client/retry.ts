/**
 * Retries, kept out of a bundle unless asked for: `retrying(options)` makes
 * the policy a connection takes as its `retry` option.
 */
import { TransportError } from './errors.js';
import type { Answer } from './exchange.js';

/**
 * Which answers are retried: 429 for every method; 502, 503, 504 and a
 * connection that failed before the request was sent only for idempotent
 * methods (GET, PUT, DELETE). A `Retry-After` header (seconds or an HTTP
 * date) sets the wait; otherwise the wait grows exponentially, with jitter.
 * Retries stop at `attempts`, at `timeoutMs`, when the caller's signal
 * aborts, or when the server asks for a wait longer than `maxDelayMs`; the
 * last answer (or failure) is then what the call returns.
 */
export interface RetryOptions {
  /** Sends at most, the first included (1: no retry). */
  attempts: number;
  /** Wait before the first retry, in milliseconds, doubling each retry (default 250). */
  baseDelayMs?: number;
  /** Longest wait, of the backoff and of a `Retry-After`, in milliseconds (default 30 000). */
  maxDelayMs?: number;
}

/**
 * Sends a request again as {@link RetryOptions} say. `attempt` sends once
 * with the time left (undefined: no limit); the last answer or failure is
 * the result.
 */
export type Retrier = (
  name: string,
  method: string,
  attempt: (timeLeftMs: number | undefined) => Promise<Answer>,
  timeoutMs: number | undefined,
  signal: AbortSignal | undefined,
) => Promise<Answer>;

const IDEMPOTENT = /^(GET|PUT|DELETE|HEAD|OPTIONS)$/;
const RETRY_STATUSES = /^50[234]$/;

/** The retry policy of `connect({ retry })`. */
export function retrying(retry: RetryOptions): Retrier {
  return async (name, method, attempt, timeoutMs, signal) => {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const remaining = (): number | undefined => (deadline === undefined ? undefined : Math.max(0, deadline - Date.now()));
    const idempotent = IDEMPOTENT.test(method);
    const attempts = Math.max(1, Math.floor(retry.attempts));
    const maxDelay = retry.maxDelayMs ?? 30_000;
    for (let count = 1; ; count++) {
      let answer: Answer;
      try {
        answer = await attempt(remaining());
      } catch (error) {
        const retryable = idempotent && count < attempts && error instanceof TransportError && error.kind === 'network' && failedBeforeSending(error.cause);
        if (!retryable || !(await pause(name, retryDelay(count, retry), remaining(), signal))) throw error;
        continue;
      }
      const retryable = count < attempts && (answer.status === 429 || (idempotent && RETRY_STATUSES.test(String(answer.status))));
      if (!retryable) return answer;
      const asked = retryAfterMs(answer.headers.get('retry-after'), Date.now());
      if (asked !== undefined && asked > maxDelay) return answer;
      if (!(await pause(name, asked ?? retryDelay(count, retry), remaining(), signal))) return answer;
    }
  };
}

/**
 * The backoff before retry `attempt` (1 = the first retry): half of
 * `min(maxDelayMs, baseDelayMs * 2^(attempt-1))` plus a random part of the
 * other half.
 */
export function retryDelay(attempt: number, retry: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const cap = Math.min(retry.maxDelayMs ?? 30_000, (retry.baseDelayMs ?? 250) * 2 ** (attempt - 1));
  return cap / 2 + random() * (cap / 2);
}

/** `Retry-After` in milliseconds from now: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Waits `ms` unless that passes the deadline (false: do not retry) or the
 * signal aborts (a TransportError, as an aborted request gives).
 */
function pause(name: string, ms: number, remaining: number | undefined, signal: AbortSignal | undefined): Promise<boolean> {
  if (remaining !== undefined && ms >= remaining) return Promise.resolve(false);
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      clearTimeout(timer);
      reject(new TransportError(name, 'aborted', 'request aborted', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve(true);
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** Error codes of a connection that failed before any byte of the request was written. */
const BEFORE_SENDING: ReadonlySet<string> = /* @__PURE__ */ new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/** Whether a fetch failure (its cause chain, or every error of an AggregateError) says nothing was sent. */
function failedBeforeSending(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && BEFORE_SENDING.has(code)) return true;
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.every((e) => failedBeforeSending(e, depth + 1));
  return failedBeforeSending((error as { cause?: unknown }).cause, depth + 1);
}
