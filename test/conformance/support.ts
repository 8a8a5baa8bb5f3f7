/** The document of this repository, loaded once per test file, and a run with test defaults. */
import { resolveGenerateConfig } from '../../generator/config.js';
import { loadDocument, type ConformanceDocument } from '../../generator/conformance/document.js';
import { runConformance, type RunOptions, type RunResult } from '../../generator/conformance/run.js';

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
