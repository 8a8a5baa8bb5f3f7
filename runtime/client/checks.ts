/**
 * Response checks (`validateResponses`): the generated per-operation module
 * that a call imports on first use builds its checks here from that
 * operation's validators, so a bundle carries only the checks of the
 * operations it calls, in a chunk loaded only when validation is on.
 */
import type { LevelledPath, ResponseChecks, ResponseIssue } from './types.js';

type CheckOptions = { strict?: boolean; allErrors?: boolean };

/** One operation's validators, as its generated checks module passes them. */
export interface OperationValidators {
  name: string;
  /** Any declared status and media type; undefined for a status the operation does not declare (not checked). */
  responses(status: number, mediaType: string | undefined, body: unknown, options?: CheckOptions): ResponseIssue[] | undefined;
  /** The declared headers of the response a status selects; absent when the operation declares none. */
  headers?(status: number, headers: Headers, options?: CheckOptions): ResponseIssue[] | undefined;
  /** Success-body fields a server below their level may leave out or send in an older shape. */
  newerFields?: readonly LevelledPath[];
  /** Per error code, its extra fields newer than some level (documents with body-coded errors). */
  newerErrorFields?: { readonly [code: string]: readonly LevelledPath[] };
}

/**
 * An operation's checks: the body against what the operation declares for
 * its status and media type (an error by its declared schema, too), the
 * declared headers, with the fields newer than the server's level excused.
 */
export function responseChecks(validators: OperationValidators): ResponseChecks {
  return {
    check({ status, headers, body, failed }, { strict, level }) {
      const options = { strict, allErrors: true };
      const code = failed ? (body as Record<string, unknown> | null)?.['code'] : undefined;
      const newer = failed ? (typeof code === 'string' ? validators.newerErrorFields?.[code] : undefined) : validators.newerFields;
      const issues = withoutNewerFields(validators.responses(status, headers.get('content-type') ?? undefined, body, options) ?? [], newer, level);
      const headerIssues = validators.headers?.(status, headers, options) ?? [];
      if (issues.length > 0 || headerIssues.length > 0) throw new ResponseValidationError(validators.name, status, [...issues, ...headerIssues], body);
    },
  };
}

/** `validateResponses` is on and a response body does not match the spec. */
export class ResponseValidationError extends Error {
  override readonly name = 'ResponseValidationError';
  readonly operation: string;
  readonly status: number;
  readonly issues: readonly ResponseIssue[];
  readonly body: unknown;

  constructor(operation: string, status: number, issues: readonly ResponseIssue[], body: unknown) {
    const listed = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
    super(`${operation}: response (HTTP ${status}) does not match the spec: ${listed}`);
    this.operation = operation;
    this.status = status;
    this.issues = issues;
    this.body = body;
  }
}

/**
 * Drops the issues a server below some fields' level explains: the field
 * missing, or in an older shape. Issues elsewhere stay.
 */
export function withoutNewerFields(issues: ResponseIssue[], newer: readonly LevelledPath[] | undefined, level: number | undefined): ResponseIssue[] {
  if (level === undefined || newer === undefined || issues.length === 0) return issues;
  const relaxed = newer.filter(([, at]) => at > level).map(([path]) => path);
  if (relaxed.length === 0) return issues;
  return issues.filter((issue) => {
    const path = fieldPath(issue.path);
    return !relaxed.some((r) => path === r || path.startsWith(`${r}.`) || path.startsWith(`${r}[`));
  });
}

/** `$.linkifiers[0]["odd key"]` -> `linkifiers[].odd key`: the form of {@link LevelledPath}. */
function fieldPath(issuePath: string): string {
  return issuePath
    .replace(/^\$/, '')
    .replace(/\[(\d+)\]/g, '[]')
    .replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_match, key: string) => `.${JSON.parse(`"${key}"`) as string}`)
    .replace(/^\./, '');
}
