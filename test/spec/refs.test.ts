/**
 * Every `$ref` resolves: in the split source files (file and JSON pointer)
 * and in the bundled document.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { atPointer, isObject, loadBundled, specRoot, type Json, type JsonObject } from './document.js';

const specDir = dirname(specRoot);

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return yamlFiles(full);
    return /\.ya?ml$/.test(entry.name) ? [full] : [];
  });
}

function refsIn(node: Json, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsIn(n, out));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refsIn(value, out);
    }
  }
  return out;
}

const parsed = new Map<string, Json>();
function load(file: string): Json {
  if (!parsed.has(file)) parsed.set(file, parse(readFileSync(file, 'utf8')) as Json);
  return parsed.get(file) as Json;
}

/** Why a reference from `file` does not resolve, or undefined if it does. */
function problem(file: string, ref: string): string | undefined {
  const [target = '', fragment] = ref.split('#');
  if (/^[a-z]+:/i.test(target)) return 'points outside the spec folder';
  const targetFile = target === '' ? file : resolve(dirname(file), target);
  let doc: Json;
  try {
    doc = load(targetFile);
  } catch (error) {
    return `cannot read ${relative(specDir, targetFile)}: ${(error as Error).message}`;
  }
  if (fragment !== undefined && atPointer(doc, decodeURIComponent(fragment)) === undefined) {
    return `no node at #${fragment} in ${relative(specDir, targetFile)}`;
  }
  return undefined;
}

describe('references', () => {
  const files = yamlFiles(specDir);

  it('are found in the split source files', () => {
    const total = files.reduce((n, f) => n + refsIn(load(f)).length, 0);
    expect(files.length).toBeGreaterThan(22);
    expect(total).toBeGreaterThan(100);
  });

  it.each(files.map((f) => [relative(specDir, f), f] as const))('in %s all resolve', (_name, file) => {
    const broken = refsIn(load(file))
      .map((ref) => [ref, problem(file, ref)] as const)
      .filter(([, why]) => why !== undefined)
      .map(([ref, why]) => `${ref}: ${why}`);
    expect(broken).toEqual([]);
  });

  it('a missing file or pointer is reported', () => {
    expect(problem(specRoot, 'paths/no-such-file.yaml')).toMatch(/cannot read/);
    expect(problem(specRoot, '#/components/schemas/NoSuchSchema')).toMatch(/no node/);
    expect(problem(specRoot, '#/components/securitySchemes/basicAuth')).toBeUndefined();
  });

  describe('in the bundled document', () => {
    let doc: JsonObject;
    let problems: string[];
    beforeAll(async () => {
      ({ doc, problems } = await loadBundled());
    });

    it('the bundler reports no problem', () => {
      expect(problems).toEqual([]);
    });

    it('every reference is local and resolves', () => {
      const broken = refsIn(doc).filter((ref) => !ref.startsWith('#') || atPointer(doc, decodeURIComponent(ref.slice(1))) === undefined);
      expect(refsIn(doc).length).toBeGreaterThan(50);
      expect(broken).toEqual([]);
    });
  });
});
