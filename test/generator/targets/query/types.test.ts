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
/** The README's example, compiled as if it sat beside `usage.ts` (it is never written to disk). */
const README_EXAMPLE = join(repoRoot, 'test/generator/targets/query/readme-example.ts');

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

/** Diagnostics of a file (its text given, or read from disk) and everything it imports. */
function typeCheck(file = USAGE, text?: string): string[] {
  const host = ts.createCompilerHost(OPTIONS);
  if (text !== undefined) {
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, version, ...rest) => (fileName === file ? ts.createSourceFile(fileName, text, version) : read(fileName, version, ...rest));
  }
  // Reusing the previous program skips re-parsing the files the checks share.
  const program = ts.createProgram([file], OPTIONS, host, previous);
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
    expect(typeCheck(USAGE, broken).join('\n')).toMatch(/is not assignable to type 'QueryObserverOptions<string, ClientError/);
  });

  it("type-check the README's example, its package imports pointing at this repository's output", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## TanStack Query'));
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example, 'the README has no TanStack Query example').toBeDefined();
    const local = example!.replace("'teamchat-api/client'", "'../../../../generated/client.js'").replace("'teamchat-api/query'", "'../../../../generated/query.js'");
    expect(local).toContain('generated/query.js');
    expect(typeCheck(README_EXAMPLE, `${local}\nexport {};\n`)).toEqual([]);
  });
});
