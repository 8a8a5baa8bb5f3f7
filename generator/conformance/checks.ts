/**
 * The checks on every answer, each under a stable rule name. A check says
 * what is wrong, at which JSON path, and where the document says otherwise.
 */
import { newerResponseFields } from '../targets/client/levels.js';
import type { ApiModel, Operation, OperationError, ResponseModel } from '../model/types.js';
import type { Case } from './cases.js';
import type { Validators } from './document.js';
import type { Locator, Place } from './locate.js';
import { withoutNewerFields } from './wire.js';

/** Every rule, with what it asks of the server (docs/conformance.md lists the same). */
export const RULES = {
  'no-server-error': 'No answer has a 5xx status.',
  'status-documented': 'The status is declared for the operation (exactly, by its range, or by `default`).',
  'content-type-documented': "The Content-Type is one the response declares for that status, and a JSON body parses.",
  'response-schema': 'The body matches the schema of the response its status selects.',
  'response-headers': 'The headers the response declares as required are present, and every declared header reads as its schema.',
  'negative-rejected': 'A request that breaks one constraint of the document is rejected with a 4xx.',
  'auth-required': 'An operation that requires credentials answers 401 or 403 without them.',
  'feature-level': 'The `X-Feature-Level` header, where the document declares it, is one integer for the whole server, and no operation newer than it succeeds.',
  'request-failed': 'The server answers: no reset connection, no timeout.',
} as const;

export type Rule = keyof typeof RULES;

export interface Answer {
  status: number;
  headers: Headers;
  /** The body's text (bytes read as UTF-8). */
  text: string;
}

export interface Finding {
  rule: Rule;
  /** JSON path of the offending value (`$.message.id`), `header <name>`, or `status`. */
  path: string;
  message: string;
  /** What the document says, and where. */
  expected: string;
  place: Place;
}

export interface CheckContext {
  model: ApiModel;
  validators: Validators;
  locator: Locator;
  strict: boolean;
  /** The first `X-Feature-Level` seen in the run. */
  featureLevel?: number;
}

const FEATURE_LEVEL_HEADER = 'x-feature-level';

export function checkAnswer(ctx: CheckContext, operation: Operation, request: Case, answer: Answer): Finding[] {
  const findings: Finding[] = [];
  const { status } = answer;
  const responses = ctx.locator.responses(operation);
  if (status >= 500) findings.push({ rule: 'no-server-error', path: 'status', message: `answered ${status}`, expected: 'no 5xx status', place: operation.source });
  const declared = selectDeclared(operation, status);
  if (declared === undefined) {
    findings.push({ rule: 'status-documented', path: 'status', message: `status ${status} is not declared`, expected: `one of ${declaredStatuses(operation).join(', ')}`, place: responses });
  }
  if (request.kind === 'negative' && status < 400) {
    const broken = request.broken!;
    findings.push({
      rule: 'negative-rejected',
      path: `parameter ${broken.parameter.name}`,
      message: `answered ${status} to a request with ${broken.description}`,
      expected: `a 4xx (${broken.constraint})`,
      place: broken.parameter.source,
    });
  }
  if (request.kind === 'unauthenticated' && status !== 401 && status !== 403 && status < 500) {
    findings.push({ rule: 'auth-required', path: 'status', message: `answered ${status} without credentials`, expected: '401 or 403', place: ctx.locator.security(operation) });
  }
  if (declared === undefined) return findings;

  const level = featureLevelFindings(ctx, operation, answer, findings);
  const contentType = answer.headers.get('content-type') ?? undefined;
  const essence = contentType === undefined ? undefined : (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (declared.contents.length > 0 && answer.text !== '') {
    const content = essence === undefined ? undefined : declared.contents.find((candidate) => mediaTypeMatches(candidate.mediaType, essence));
    if (content === undefined) {
      findings.push({
        rule: 'content-type-documented',
        path: 'header content-type',
        message: contentType === undefined ? 'no Content-Type' : `Content-Type \`${contentType}\` is not declared for status ${status}`,
        expected: declared.contents.map((c) => c.mediaType).join(', '),
        place: ctx.locator.content(operation, status),
      });
    } else if (content.kind === 'json') {
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        findings.push({ rule: 'content-type-documented', path: '$', message: 'the body is not JSON', expected: content.mediaType, place: ctx.locator.content(operation, status) });
        return findings;
      }
      let issues = ctx.validators.validateResponse(operation.names.camel, status, essence, body, { strict: ctx.strict, allErrors: true }) ?? [];
      // A server below the document's level may leave out or reshape what is newer (feature-level convention).
      if (level !== undefined && level < ctx.model.maxFeatureLevel && status < 300) issues = withoutNewerFields(issues, newerResponseFields(ctx.model, operation), level);
      for (const issue of issues) {
        findings.push({ rule: 'response-schema', path: issue.path, message: issue.message, expected: `the ${status} response schema`, place: ctx.locator.schema(operation, status, essence, issue.path) });
      }
    }
  }
  const headerIssues = ctx.validators.validateResponseHeaders(operation.names.camel, status, answer.headers, { allErrors: true }) ?? [];
  for (const issue of headerIssues) {
    const name = issue.path.replace(/^header /, '').split(/[.[]/, 1)[0] ?? '';
    findings.push({ rule: 'response-headers', path: issue.path, message: issue.message, expected: `header \`${name}\` as declared for ${status}`, place: ctx.locator.header(operation, status, name) });
  }
  return findings;
}

/** The `X-Feature-Level` checks; returns the level the answer gives, if any. */
function featureLevelFindings(ctx: CheckContext, operation: Operation, answer: Answer, findings: Finding[]): number | undefined {
  if (!ctx.model.conventions.featureLevels) return undefined;
  const text = answer.headers.get(FEATURE_LEVEL_HEADER);
  if (text === null) return undefined;
  const place = ctx.locator.header(operation, answer.status, FEATURE_LEVEL_HEADER);
  const level = /^\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
  if (level === undefined) {
    findings.push({ rule: 'feature-level', path: `header ${FEATURE_LEVEL_HEADER}`, message: `\`${text}\` is not a feature level`, expected: 'an integer', place });
    return undefined;
  }
  ctx.featureLevel ??= level;
  if (level !== ctx.featureLevel) {
    findings.push({ rule: 'feature-level', path: `header ${FEATURE_LEVEL_HEADER}`, message: `level ${level}, where earlier answers said ${ctx.featureLevel}`, expected: 'one level for the whole server', place });
  }
  if (operation.featureLevel !== undefined && operation.featureLevel > level && answer.status >= 200 && answer.status < 300) {
    findings.push({ rule: 'feature-level', path: `header ${FEATURE_LEVEL_HEADER}`, message: `the operation succeeded at level ${level}, below the level ${operation.featureLevel} that added it`, expected: `level ${operation.featureLevel} or higher`, place: operation.source });
  }
  return level;
}

type Declared = ResponseModel | OperationError;

/** The declared response a status selects: exact, else its range, else `default`. */
export function selectDeclared(operation: Operation, status: number): Declared | undefined {
  const all: Declared[] = [...operation.successes.filter((response) => response.synthetic !== true), ...operation.errors];
  const exact = all.find((response) => response.statusText === undefined && response.status === status);
  if (exact !== undefined) return exact;
  const range = `${String(status).charAt(0)}XX`;
  return all.find((response) => response.statusText === range) ?? all.find((response) => response.statusText === 'default');
}

function declaredStatuses(operation: Operation): string[] {
  return [...operation.successes, ...operation.errors].map((response) => response.statusText ?? String(response.status));
}

function mediaTypeMatches(declared: string, actual: string): boolean {
  const essence = (declared.split(';', 1)[0] ?? '').trim();
  if (essence === actual || essence === '*/*') return true;
  return essence.endsWith('/*') && actual.startsWith(essence.slice(0, -1));
}
