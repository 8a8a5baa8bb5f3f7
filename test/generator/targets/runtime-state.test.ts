/**
 * The runtimes copied into users' projects (`runtime/`) keep no state at
 * module level: options arrive through the call that registers or creates,
 * and two callers in one process never share a mutable object through an
 * import. Constant tables stay, typed read-only or frozen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/process.js';

/** Module-level declarations of `source` that hold or may hold mutable state, as `name: reason`. */
function moduleState(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const constant = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const declaration of list.declarations) {
      const name = declaration.name.getText(file);
      if (!constant) {
        found.push(`${name}: let or var`);
        continue;
      }
      const reason = mutableValue(declaration, file);
      if (reason !== undefined) found.push(`${name}: ${reason}`);
    }
  }
  return found;
}

function mutableValue(declaration: ts.VariableDeclaration, file: ts.SourceFile): string | undefined {
  const typeText = declaration.type?.getText(file) ?? '';
  const readonlyType = /^(readonly |Readonly(Set|Map|Array)?<)/.test(typeText);
  let value = declaration.initializer;
  if (value === undefined) return undefined;
  while (ts.isParenthesizedExpression(value)) value = value.expression;
  if (ts.isAsExpression(value) && value.type.getText(file) === 'const') return undefined;
  if (ts.isRegularExpressionLiteral(value)) return /\/[a-z]*[gy][a-z]*$/.test(value.text) ? 'a global or sticky regex keeps lastIndex' : undefined;
  if (ts.isNewExpression(value)) return readonlyType ? undefined : `new ${value.expression.getText(file)} not typed read-only`;
  if (ts.isArrayLiteralExpression(value) || ts.isObjectLiteralExpression(value)) return readonlyType ? undefined : 'a literal neither read-only nor frozen';
  return undefined;
}

function runtimeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return runtimeFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('runtime modules hold no module-level state', () => {
  it('finds state where there is some', () => {
    const source = [
      'let count = 0;',
      'const cache = new Map<string, number>();',
      'const seen: string[] = [];',
      'const options = { strict: false };',
      'const words = /\\w+/g;',
      'const cursor = /* @__PURE__ */ new Cursor();',
      'const KINDS: ReadonlySet<string> = new Set(["a"]);',
      'const NAMES: readonly string[] = [];',
      'const LEVELS = ["a", "b"] as const;',
      'const LIMITS = Object.freeze({ parts: 1000 });',
      'const WORD = /^\\w+$/;',
      'const kUser = Symbol("user");',
    ].join('\n');
    expect(moduleState('sample.ts', source)).toEqual([
      'count: let or var',
      'cache: new Map not typed read-only',
      'seen: a literal neither read-only nor frozen',
      'options: a literal neither read-only nor frozen',
      'words: a global or sticky regex keeps lastIndex',
      'cursor: new Cursor not typed read-only',
    ]);
  });

  it('finds none in runtime/', () => {
    const runtime = join(repoRoot, 'runtime');
    const found = runtimeFiles(runtime).flatMap((path) =>
      moduleState(path, readFileSync(path, 'utf8')).map((entry) => `${relative(runtime, path)}: ${entry}`),
    );
    expect(found).toEqual([]);
  });
});
