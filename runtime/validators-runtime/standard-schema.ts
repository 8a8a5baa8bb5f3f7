/**
 * Standard Schema v1 (standardschema.dev, the `@standard-schema/spec`
 * interface), declared here so that the generated module has no dependency:
 * libraries that accept any Standard Schema (form and router libraries,
 * tRPC) take the generated `<Name>Schema` objects as they are.
 */
import type { Decoded } from './decoded.js';
import type { CheckFunction, Failure } from './failures.js';
import type { RawRequest } from './request.js';

export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1Props<Input, Output>;
}

export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

export type StandardSchemaV1Result<Output> = { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaV1Issue[] };

export interface StandardSchemaV1Issue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The vendor named by every generated Standard Schema. */
export const STANDARD_VENDOR = 'teamchat';

/** The keys of a failure path as the checks write it (`.a[0]["b c"]` -> `a`, `0`, `b c`). */
export function pathKeys(path: string): PropertyKey[] {
  const keys: PropertyKey[] = [];
  let i = 0;
  while (i < path.length) {
    if (path.charCodeAt(i) === 46) {
      // `.name`: up to the next `.` or `[`.
      let end = i + 1;
      while (end < path.length && path.charCodeAt(end) !== 46 && path.charCodeAt(end) !== 91) end++;
      keys.push(path.slice(i + 1, end));
      i = end;
    } else if (path.charCodeAt(i + 1) === 34) {
      // `["text"]`: a JSON string, then `]`.
      let end = i + 2;
      while (end < path.length && path.charCodeAt(end) !== 34) end += path.charCodeAt(end) === 92 ? 2 : 1;
      keys.push(JSON.parse(path.slice(i + 1, end + 1)) as string);
      i = end + 2;
    } else {
      // `[index]`.
      const end = path.indexOf(']', i);
      keys.push(Number(path.slice(i + 1, end)));
      i = end + 1;
    }
  }
  return keys;
}

/**
 * A check function and its predicate as a Standard Schema: a valid value is
 * returned as it is, an invalid one gives every failure with its path.
 */
export function checkSchema<T>(check: CheckFunction, test: (v: unknown, strict: boolean) => boolean): StandardSchemaV1<T> {
  return {
    '~standard': {
      version: 1,
      vendor: STANDARD_VENDOR,
      validate(value: unknown): StandardSchemaV1Result<T> {
        if (test(value, false)) return { value: value as T };
        const out: Failure[] = [];
        check(value, out, true, false);
        return { issues: out.map((failure) => ({ message: failure.message, path: pathKeys(failure.path) })) };
      },
    },
  };
}

/** A request decoder as a Standard Schema: the raw request in, its typed parameters out, or the first bad parameter's error. */
export function decoderSchema<P>(decode: (raw: RawRequest) => Decoded<P>): StandardSchemaV1<RawRequest, P> {
  return {
    '~standard': {
      version: 1,
      vendor: STANDARD_VENDOR,
      validate(value: unknown): StandardSchemaV1Result<P> {
        if (typeof value !== 'object' || value === null) return { issues: [{ message: 'must be a request: { path, query, body }' }] };
        const decoded = decode(value as RawRequest);
        return decoded.ok ? { value: decoded.value } : { issues: [{ message: decoded.error.msg, path: [decoded.error.parameter] }] };
      },
    },
  };
}
