/**
 * The V8 code cache TypeScript loads through (generator/code-cache.ts): the
 * first process writes it, the next ones use it and get a working
 * TypeScript, the same instance openapi-typescript requires; a folder other
 * users could write to is never used. Separate processes, since the cache
 * is written at exit. (How much time it saves is the benchmark's business.)
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { moduleSource } from '../../../generator/code-cache.js';
import { repoRoot, runNode } from '../../support/process.js';

const scratch = mkdtempSync(join(tmpdir(), 'teamchat-code-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Loads TypeScript through the cache, uses it, and checks openapi-typescript's transform sees the same instance.
const script = `
const { createRequire } = await import('node:module');
const { typescript, openapiTypescriptTransform } = await import(${JSON.stringify(join(repoRoot, 'dist/generator/cjs.js'))});
const ts = typescript();
openapiTypescriptTransform();
const fromPeer = createRequire(createRequire(${JSON.stringify(join(repoRoot, 'package.json'))}).resolve('openapi-typescript'))('typescript');
const out = ts.transpileModule('export const x: number = 1;', { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
console.log(JSON.stringify({ out: out.trim(), same: fromPeer === ts, version: ts.version }));
`;

const runWith = (dir: string) => runNode('--input-type=module', ['-e', script], { cwd: scratch, env: { ...process.env, TEAMCHAT_CACHE_DIR: dir }, timeoutMs: 60_000 });

it('is written by the first run and used by the next, which get a working TypeScript shared with openapi-typescript', async () => {
  const dir = join(scratch, 'own');
  const first = await runWith(dir);
  expect(first.stderr).toBe('');
  const files = readdirSync(dir).filter((f) => f.endsWith('.v8cache'));
  expect(files).toHaveLength(1);
  const second = await runWith(dir);
  expect(second.code).toBe(0);
  for (const result of [first, second]) {
    const parsed = JSON.parse(result.stdout) as { out: string; same: boolean; version: string };
    expect(parsed.out).toBe('export const x = 1;');
    expect(parsed.same).toBe(true);
  }
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
});

it.runIf(process.getuid !== undefined)('never uses a folder that others may write to', async () => {
  const dir = join(scratch, 'shared');
  mkdirSync(dir);
  chmodSync(dir, 0o777);
  const result = await runWith(dir);
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ out: 'export const x = 1;', same: true });
  expect(readdirSync(dir)).toEqual([]);
});

it('is off with TEAMCHAT_CACHE_DIR=off', async () => {
  const result = await runWith('off');
  expect(result.code).toBe(0);
  expect(JSON.parse(result.stdout)).toMatchObject({ same: true });
  expect(readdirSync(scratch)).not.toContain('off');
});

it.each<[string, string]>([
  ['plain ASCII', 'module.exports = "a\\u00e9";\n'],
  ['UTF-8 beyond ASCII', 'module.exports = "\u00e9\u4e2d\ud83d\ude00";\n'],
  ['a byte-order mark', '\ufeffmodule.exports = 1;\n'],
])('reads a module of %s as the same text as a UTF-8 read', (_name, text) => {
  const file = join(scratch, `source-${_name.replace(/\W+/g, '-')}.cjs`);
  writeFileSync(file, text, 'utf8');
  expect(moduleSource(file)).toBe(readFileSync(file, 'utf8'));
  expect(moduleSource(file)).toBe(text);
});

it('reads TypeScript as a UTF-8 read does', () => {
  const file = createRequire(join(repoRoot, 'package.json')).resolve('typescript');
  expect(moduleSource(file) === readFileSync(file, 'utf8')).toBe(true);
});
