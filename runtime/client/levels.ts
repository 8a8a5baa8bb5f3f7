/**
 * Feature levels (documents that name them): refusing, before sending, an
 * operation or parameter newer than the server, learning the server's level
 * from its answers (response fields newer than it are excused by
 * `checks.ts`; docs/decisions/0010-level-aware-clients.md). Kept out of a bundle unless
 * a connection is given `levels: featureLevels(...)`.
 */
import { UnsupportedFeatureError } from './errors.js';
import { exchange } from './exchange.js';
import type { OperationSpec } from './types.js';

/** The header every answer of a levelled server carries its feature level in. */
export const FEATURE_LEVEL_HEADER = 'x-feature-level';

/** What a connection knows of the server's feature level. */
export interface FeatureLevels {
  /** The level the connection works with: given, or learned from the server; undefined until known. */
  level(): number | undefined;
  /** Throws `UnsupportedFeatureError` when the operation, or a parameter given a value, is newer than the level. */
  check(spec: OperationSpec, values: Record<string, unknown>): void;
  /** Reads the level an answer reports (when the level is learned from the server). */
  learn(headers: Headers): void;
}

/**
 * The server's feature level: a number, or `'server'` to learn it from the
 * `X-Feature-Level` header of every answer (nothing is refused before the
 * first answer; see also {@link detectLevel}).
 */
export function featureLevels(given: number | 'server'): FeatureLevels {
  let learned: number | undefined;
  const level = (): number | undefined => (typeof given === 'number' ? given : learned);
  return {
    level,
    check(spec, values) {
      const serverLevel = level();
      if (serverLevel === undefined) return;
      if (spec.featureLevel !== undefined && spec.featureLevel > serverLevel) throw new UnsupportedFeatureError(spec.name, undefined, spec.featureLevel, serverLevel);
      for (const param of spec.params) {
        if (param.featureLevel !== undefined && param.featureLevel > serverLevel && values[param.key ?? param.name] !== undefined) {
          throw new UnsupportedFeatureError(spec.name, param.name, param.featureLevel, serverLevel);
        }
      }
    },
    learn(headers) {
      if (given === 'server') learned = reportedLevel(headers) ?? learned;
    },
  };
}

/** Options of {@link detectLevel}. */
export interface DetectOptions {
  baseUrl: string;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Asks the server for its feature level: one unauthenticated `GET` of the
 * API's base path, whose answer (whatever its status) carries the level in
 * `X-Feature-Level`. Undefined when the server does not report one.
 */
export async function detectLevel(basePath: string, options: DetectOptions): Promise<number | undefined> {
  const url = `${options.baseUrl.replace(/\/+$/, '')}${basePath}/`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const noCredentials = { documented: () => false, crossOrigin: 'refuse', headers: [], query: [] } as const;
  const { headers } = await exchange('detectFeatureLevel', fetchImpl, url, { method: 'GET', headers: { Accept: 'application/json' } }, options.timeoutMs, options.timeoutMs, options.signal, noCredentials);
  return reportedLevel(headers);
}

function reportedLevel(headers: Headers): number | undefined {
  const value = headers.get(FEATURE_LEVEL_HEADER)?.trim();
  return value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
}
