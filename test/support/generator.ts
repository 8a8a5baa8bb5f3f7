/** Shared helpers for the generator-core tests: temp projects built from fixture specs. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveGenerateConfig, type GenerateConfig, type GenerateInput } from '../../generator/config.js';
import { loadSpec } from '../../generator/load/index.js';
import { buildModel } from '../../generator/model/build.js';
import type { ApiModel } from '../../generator/model/types.js';

export const FIXTURES = fileURLToPath(new URL('../fixtures/generator/', import.meta.url));

/** A fresh temp project whose `spec/` is a copy of a fixture spec folder. */
export function tempProject(fixture: string): { root: string; dispose(): void } {
  const root = mkdtempSync(join(tmpdir(), 'teamchat-gen-'));
  cpSync(join(FIXTURES, fixture), join(root, 'spec'), { recursive: true });
  return { root, dispose: () => rmSync(root, { recursive: true, force: true }) };
}

export function config(root: string, input: Partial<GenerateInput> = {}, known = ['types']): GenerateConfig {
  return resolveGenerateConfig({ spec: 'spec/openapi.yaml', out: 'generated', check: false, watch: false, ...input }, root, known);
}

export async function fixtureModel(fixture: string): Promise<ApiModel> {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  return buildModel(await loadSpec(join(FIXTURES, fixture, 'openapi.yaml'), root));
}

/** Every file under `dir`: relative path -> contents and mtime. */
export function snapshot(dir: string): Map<string, { contents: string; mtimeMs: number }> {
  const files = new Map<string, { contents: string; mtimeMs: number }>();
  const visit = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) visit(path);
      else files.set(relative(dir, path), { contents: readFileSync(path, 'utf8'), mtimeMs: statSync(path).mtimeMs });
    }
  };
  visit(dir);
  return files;
}
