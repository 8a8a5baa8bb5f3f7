/**
 * Response bodies checked by status and media type: the tables the generated
 * module declares per operation and the checks that select from them.
 */
import { validateWith, type CheckFunction, type Issue, type ValidateOptions } from './failures.js';
import { matchMediaType, mediaTypeOf } from './media-types.js';

/** Checks one response body; `[]` when it is valid. */
export type ResponseCheck = (body: unknown, options?: ValidateOptions) => Issue[];

/**
 * The responses of one operation: status key (`200`, `2XX`, `default`, ...)
 * to media type (lower case, as declared) to its check, `null` for a body
 * that is not JSON (text or bytes: nothing to check). A response without a
 * body has no media types.
 */
export type ResponseTable = Readonly<Record<string, Readonly<Record<string, CheckFunction | null>>>>;

/** The response a status selects: the exact status, else its `NXX` range, else `default`. */
export function selectResponse<T>(table: Readonly<Record<string, T>>, status: number): T | undefined {
  const key = String(status);
  if (Object.hasOwn(table, key)) return table[key];
  const range = `${key.charAt(0)}XX`;
  if (Object.hasOwn(table, range)) return table[range];
  return Object.hasOwn(table, 'default') ? table.default : undefined;
}

/**
 * Checks a response body against the response its status selects:
 * `undefined` when the operation declares none for the status; `[]` for a
 * response without a body (whatever came) or a body that is not JSON; one
 * issue when the media type is not declared for the status.
 */
export function checkResponse(
  table: ResponseTable,
  status: number,
  mediaType: string | undefined,
  body: unknown,
  options: ValidateOptions | undefined,
): Issue[] | undefined {
  const response = selectResponse(table, status);
  if (response === undefined) return undefined;
  const types = Object.keys(response);
  if (types.length === 0) return [];
  const index = mediaType === undefined ? 0 : matchMediaType(mediaType, types);
  if (index === -1) return [{ path: '$', message: `media type \`${mediaTypeOf(mediaType!)}\` is not declared for status ${status}` }];
  const check = response[types[index]!];
  return check == null ? [] : validateWith(check, body, options);
}

/** The published form of response tables: every check as `(body, options) => Issue[]`. */
export function responseValidatorTables<K extends string>(
  tables: Readonly<Record<K, ResponseTable>>,
): { readonly [O in K]: Readonly<Record<string, Readonly<Record<string, ResponseCheck>>>> } {
  const none: ResponseCheck = () => [];
  const result = {} as Record<K, Record<string, Record<string, ResponseCheck>>>;
  for (const operation of Object.keys(tables) as K[]) {
    const byStatus: Record<string, Record<string, ResponseCheck>> = {};
    for (const [status, media] of Object.entries(tables[operation])) {
      const byType: Record<string, ResponseCheck> = {};
      for (const [type, check] of Object.entries(media)) {
        byType[type] = check === null ? none : (body, options) => validateWith(check, body, options);
      }
      byStatus[status] = byType;
    }
    result[operation] = byStatus;
  }
  return result;
}
