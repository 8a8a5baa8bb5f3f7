/**
 * The client package's compile step: one program for every module must give
 * what TypeScript's own per-file `transpileModule` and `transpileDeclaration`
 * give (so a TypeScript upgrade that changes either shows here), and code that
 * is not `isolatedDeclarations`-clean or does not parse stops the run naming
 * the file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { compileModules } from '../../../../generator/targets/client-package/compile.js';
import { repoRoot } from '../../../support/process.js';

const BANNER = '// banner';

function perFile(sources: Map<string, string>): Map<string, string> {
  const compilerOptions: ts.CompilerOptions = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022, newLine: ts.NewLineKind.LineFeed, strict: true };
  const files = new Map<string, string>();
  for (const [path, text] of sources) {
    const base = path.replace(/\.ts$/, '');
    files.set(`${base}.js`, ts.transpileModule(text, { fileName: path, compilerOptions }).outputText);
    const dts = ts.transpileDeclaration(text, { fileName: path, compilerOptions }).outputText;
    files.set(`${base}.d.ts`, dts.startsWith(BANNER) ? dts : `${BANNER}\n${dts}`);
  }
  return files;
}

describe('compileModules', () => {
  it("gives TypeScript's per-file JavaScript and declarations for our generated client", () => {
    const names = ['types.ts', 'client.ts', 'client/connect.ts', 'client/operations/get-message.ts', 'client/checks/get-message.ts', ...readdirSync(join(repoRoot, 'generated/client/runtime')).map((file) => `client/runtime/${file}`), 'validators.ts', ...readdirSync(join(repoRoot, 'generated/validators-runtime')).map((file) => `validators-runtime/${file}`)];
    const sources = new Map(names.map((name) => [name, readFileSync(join(repoRoot, 'generated', name), 'utf8')]));
    const compiled = compileModules(sources, BANNER);
    expect([...compiled.keys()].sort()).toEqual(names.flatMap((n) => [n.replace(/ts$/, 'js'), n.replace(/ts$/, 'd.ts')]).sort());
    const expected = perFile(sources);
    for (const [path, text] of expected) expect(compiled.get(path), path).toBe(text);
  });

  it('keeps modules apart: an import of a sibling is left as written, types-only imports are dropped', () => {
    const sources = new Map([
      ['a.ts', `import type { B } from './b.js';\nimport { make } from './b.js';\nexport const a: B = make();\n`],
      ['b.ts', `export interface B { n: number }\nexport function make(): B {\n  return { n: 1 };\n}\n`],
    ]);
    const compiled = compileModules(sources, BANNER);
    expect(compiled.get('a.js')).toBe(`import { make } from './b.js';\nexport const a = make();\n`);
    expect(compiled.get('a.d.ts')).toBe(`${BANNER}\nimport type { B } from './b.js';\nexport declare const a: B;\n`);
    expect(compiled.get('b.d.ts')).toContain('export declare function make(): B;');
  });

  it('refuses an export without an explicit type, naming file and line', () => {
    const sources = new Map([['ok.ts', 'export const one: number = 1;\n'], ['bad.ts', 'export const x: number = 1;\nexport function f() {\n  return x;\n}\n']]);
    expect(() => compileModules(sources, BANNER)).toThrow(/^client-package: bad\.ts:2: .*explicit return type/);
  });

  it('refuses code that does not parse, naming file and line', () => {
    expect(() => compileModules(new Map([['broken.ts', 'export const a: number = 1;\nexport const = 2;\n']]), BANNER)).toThrow(/^client-package: broken\.ts:2: /);
  });
});
