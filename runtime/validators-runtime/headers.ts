/** Response headers checked against those declared for the response a status selects. */
import { validateWith, type CheckFunction, type Issue, type ValidateOptions } from './failures.js';
import { selectResponse } from './responses.js';
import { parseScalar, scalarList } from './scalars.js';
import { headerList } from './styles.js';

/**
 * A declared response header: its lower-case name, whether it is required,
 * the scalar kinds its text reads as, whether it is a comma-separated list
 * (`simple` style), and the check of the value (`null`: presence only).
 */
export type HeaderCheck = readonly [name: string, required: boolean, kinds: number, list: boolean, check: CheckFunction | null];
/** Declared response headers by status key (`200`, `2XX`, `default`). */
export type HeaderTable = Readonly<Record<string, readonly HeaderCheck[]>>;
/** Response headers as fetch gives them (`Headers`), or as Node and Fastify do (a record by lower-case name). */
export type HeadersLike = { get(name: string): string | null } | Readonly<Record<string, string | number | readonly string[] | undefined>>;

/**
 * Checks the headers of a response against those declared for the status it
 * selects (as `checkResponse` selects the body's): a required one missing, or
 * one whose text does not read as its schema, is an issue at `header <name>`.
 * `undefined` when no response is declared for the status (the table lists
 * every declared status of an operation that declares any header).
 */
export function checkResponseHeaders(table: HeaderTable, status: number, headers: HeadersLike, options: ValidateOptions | undefined): Issue[] | undefined {
  const checks = selectResponse(table, status);
  if (checks === undefined) return undefined;
  let issues: Issue[] | undefined;
  for (const [name, required, kinds, list, check] of checks) {
    const text = headerText(headers, name);
    if (text === undefined) {
      if (required) (issues ??= []).push({ path: `header ${name}`, message: 'is required' });
      continue;
    }
    if (check === null) continue;
    const value = list ? scalarList(headerList(text), kinds) : parseScalar(text, kinds);
    for (const issue of validateWith(check, value, options)) (issues ??= []).push({ path: `header ${name}${issue.path.slice(1)}`, message: issue.message });
    if (issues !== undefined && options?.allErrors !== true) break;
  }
  return issues ?? [];
}

function headerText(headers: HeadersLike, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | number | readonly string[] | undefined>>;
  const value = Object.hasOwn(record, name) ? record[name] : Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}
