/**
 * The runtime folders (`runtime/<folder>/`) are small modules, each reached
 * from the folder's index, whose imports of one another form no cycle
 * (decision 0037): a module can be read, and moved, knowing only what it
 * imports. `server-runtime/` is held to that for what runs (its modules
 * name one another's types in a circle).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/process.js';

/** The modules of the same folder that `source` imports or re-exports (`./json.js` as `json.ts`), type-only ones unless `values`. */
function siblingImports(source: string, values = false): string[] {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement))) continue;
    const typeOnly = ts.isImportDeclaration(statement) ? statement.importClause?.isTypeOnly === true : statement.isTypeOnly;
    if (values && typeOnly) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
    const match = /^\.\/([^/]+)\.js$/.exec(specifier.text);
    if (match !== null) found.push(`${match[1]}.ts`);
  }
  return found;
}

/** Each cycle of a module graph, as the modules along it from the first met, once per cycle. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (name: string, path: string[]): void => {
    const at = path.indexOf(name);
    if (at !== -1) {
      found.push([...path.slice(at), name]);
      return;
    }
    if (done.has(name)) return;
    for (const next of graph.get(name) ?? []) visit(next, [...path, name]);
    done.add(name);
  };
  for (const name of [...graph.keys()].sort()) visit(name, []);
  return found;
}

function folderGraph(folder: string, values: boolean): Map<string, string[]> {
  const dir = join(repoRoot, 'runtime', folder);
  const names = readdirSync(dir).filter((name) => name.endsWith('.ts')).sort();
  return new Map(names.map((name) => [name, siblingImports(readFileSync(join(dir, name), 'utf8'), values)]));
}

describe('runtime folders', () => {
  it('finds a cycle where there is one, and reads imports, re-exports and type imports', () => {
    const graph = new Map([
      ['a.ts', siblingImports(`import { b } from './b.js';\nexport const a = b;\n`)],
      ['b.ts', siblingImports(`import type { C } from './c.js';\nexport const b = 1;\nexport type { C };\n`)],
      ['c.ts', siblingImports(`export { a } from './a.js';\nexport interface C {}\n`)],
      ['d.ts', siblingImports(`import { a } from './a.js';\nimport { x } from '../x.js';\nimport ts from 'typescript';\n`)],
    ]);
    expect(graph.get('d.ts')).toEqual(['a.ts']);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(siblingImports(`import type { C } from './c.js';\nexport type { D } from './d.js';\nimport { e } from './e.js';\n`, true)).toEqual(['e.ts']);
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });

  it.each([
    ['validators-runtime', false],
    ['query-runtime', false],
    ['server-runtime', true],
  ] as const)('%s: an index that reaches every module, and no cycle among them (value imports only: %s)', (folder, values) => {
    const graph = folderGraph(folder, false);
    expect([...graph.keys()]).toContain('index.ts');
    // Every module is reached from the index.
    const reached = new Set<string>();
    const reach = (name: string): void => {
      if (reached.has(name)) return;
      reached.add(name);
      for (const next of graph.get(name) ?? []) reach(next);
    };
    reach('index.ts');
    expect([...graph.keys()].filter((name) => !reached.has(name))).toEqual([]);
    expect(cycles(values ? folderGraph(folder, true) : graph)).toEqual([]);
  });
});
