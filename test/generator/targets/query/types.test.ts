/**
 * The committed `generated/query.ts` type-checks against `@tanstack/query-core`
 * as a browser app would compile it: `usage.ts` assigns its options to
 * query-core's `QueryObserverOptions` / `MutationObserverOptions`, lets an
 * adapter-like signature infer data and error types, and holds
 * `@ts-expect-error` lines that must stay errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../support/process.js';

const USAGE = join(repoRoot, 'test/generator/targets/query/usage.ts');

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  verbatimModuleSyntax: true,
  noEmit: true,
};

let previous: ts.Program | undefined;

/** Diagnostics of the usage file (its text replaced by `text` when given) and everything it imports. */
function typeCheck(text?: string): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  if (text !== undefined) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, version, ...rest) => (fileName === USAGE ? ts.createSourceFile(fileName, text, version) : read(fileName, version, ...rest));
  }
  // Reusing the previous program skips re-parsing the files the two checks share.
  const program = ts.createProgram([USAGE], OPTIONS, host, previous);
  previous = program;
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('generated query options types', () => {
  it('type-check against query-core in a browser project (DOM lib, no Node types)', () => {
    expect(typeCheck()).toEqual([]);
  });

  it('reports a wrong data type (the check can fail)', () => {
    const source = readFileSync(USAGE, 'utf8');
    const broken = `${source}\nexport const broken: QueryObserverOptions<string, ClientError, string, string, GetMessageQueryKey> = getMessageQueryOptions(connection, { message_id: 1 });\n`;
    expect(typeCheck(broken).join('\n')).toMatch(/is not assignable to type 'QueryObserverOptions<string, ClientError/);
  });
});
