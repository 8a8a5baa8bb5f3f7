/** The document of this repository, loaded once per test file, and a run with test defaults. */
import { resolveGenerateConfig } from '../../generator/config.js';
import { loadDocument, type ConformanceDocument } from '../../generator/conformance/document.js';
import { classify } from '../../generator/conformance/cases.js';
import type { Answer } from '../../generator/conformance/checks.js';
import { runConformance, type RunOptions, type RunResult } from '../../generator/conformance/run.js';
import type { WireRequest } from '../../generator/conformance/wire.js';

export const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

export function ownDocument(): Promise<ConformanceDocument> {
  return loadDocument(resolveGenerateConfig({}, root, ['validators']));
}

export function run(doc: ConformanceDocument, baseUrl: string, options: Partial<RunOptions> & { auth?: string }): Promise<RunResult> {
  const { auth, ...rest } = options;
  return runConformance(doc, {
    baseUrl,
    seed: 1,
    maxRequests: 100,
    allowWrites: true,
    strict: false,
    credentials: { values: new Map(auth === undefined ? [] : [['basicAuth', auth]]) },
    maxShrinkRequests: 25,
    ...rest,
  });
}

/** `rule` per operation, sorted, for comparing what a run found. */
export function found(result: RunResult): string[] {
  return result.failures.map((failure) => `${failure.operationId} ${failure.rule}`).sort();
}

/** How the in-process server answers one request; `undefined` lets it answer as a conforming server does. */
export type Override = (request: WireRequest, answer: Answer, operationId: string) => Answer | undefined;

/**
 * A transport that answers in process as a conforming server would: 401
 * without credentials, 400 where the document's decoder refuses, else the
 * operation's first success example with `X-Feature-Level`. No network.
 */
export function inProcessServer(doc: ConformanceDocument, override?: Override): NonNullable<RunOptions['fetch']> {
  const headers = new Headers({ 'content-type': 'application/json', 'x-feature-level': String(doc.model.maxFeatureLevel) });
  const routes = doc.model.operations.map((operation) => ({
    operation,
    method: operation.method.toUpperCase(),
    pattern: new RegExp(`${operation.basePath}${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    ok: JSON.stringify(operation.success.examples[0]?.value ?? { result: 'success', msg: '' }),
  }));
  const error = (status: number, code: string): Answer => ({ status, headers: new Headers({ 'content-type': 'application/json' }), text: JSON.stringify({ result: 'error', msg: code, code }) });
  return async (request) => {
    const path = new URL(request.url).pathname;
    const route = routes.find((candidate) => candidate.method === request.method && candidate.pattern.test(path));
    if (route === undefined) return error(404, 'NOT_FOUND');
    let answer: Answer;
    if (route.operation.auth && request.headers.Authorization === undefined) answer = error(401, 'UNAUTHORIZED');
    else if (!(await classify(doc.validators, route.operation, request)).ok) answer = error(400, 'BAD_REQUEST');
    else answer = { status: 200, headers, text: route.ok };
    return override?.(request, answer, route.operation.id) ?? answer;
  };
}
