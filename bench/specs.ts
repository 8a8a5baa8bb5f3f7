/**
 * The specs every generator is timed on: our bundled document, and synthetic
 * ones N times its size made of its operations copied under renamed paths
 * (`/c2/users/me`) and operationIds (`get-own-user-c2`), sharing one set of
 * components. Each lives in a scratch project outside the working tree, so
 * no generator ever writes into the real one.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { load as loadYaml } from 'js-yaml';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpec } from '../generator/load/index.js';

type Doc = Record<string, unknown>;
type PathItem = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The spec after bundling: one document, every external ref turned into a components ref. */
export async function bundledSpec(root: string): Promise<Doc> {
  return (await loadSpec('spec/openapi.yaml', root)).document;
}

/**
 * A document as written, YAML or JSON, for a scratch project: not bundled or
 * normalised by our loader, so every generator reads the same text.
 */
export function readDocument(path: string): Doc {
  const text = readFileSync(path, 'utf8');
  const doc = /\.json$/i.test(path) ? (JSON.parse(text) as unknown) : loadYaml(text);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error(`bench: ${path} is not an OpenAPI document (its top level is not a mapping)`);
  return doc as Doc;
}

/** `factor` copies of every operation; copy 1 is the original. */
export function scaledSpec(doc: Doc, factor: number): Doc {
  const paths = doc.paths as Record<string, PathItem>;
  const scaled: Record<string, PathItem> = {};
  for (let copy = 1; copy <= factor; copy++) {
    for (const [path, item] of Object.entries(paths)) {
      if (copy === 1) {
        scaled[path] = item;
        continue;
      }
      const renamed: PathItem = {};
      for (const [key, value] of Object.entries(item)) {
        renamed[key] = METHODS.includes(key) ? { ...(value as Doc), operationId: `${(value as Doc).operationId as string}-c${copy}` } : value;
      }
      scaled[`/c${copy}${path}`] = renamed;
    }
  }
  return { ...doc, paths: scaled };
}

export function operationCount(doc: Doc): number {
  return Object.values(doc.paths as Record<string, PathItem>).reduce((n, item) => n + Object.keys(item).filter((k) => METHODS.includes(k)).length, 0);
}

/** What our generator needs besides the spec, copied so the scratch project behaves like a checkout (bin runs the compiled dist/). */
const COPIED = ['bin', 'dist', 'package-root.ts', 'generator', 'templates', 'runtime', 'server/handlers', 'package.json', 'tsconfig.json'];

export interface ScratchProject {
  dir: string;
  /** The spec file, relative to `dir`. */
  spec: string;
  operations: number;
  remove(): void;
}

/**
 * A project copy with the document as one JSON file at `spec/openapi.json`
 * (the redocly.yaml lint plugins are left out: generating does not lint).
 */
export function scratchProject(root: string, doc: Doc, label: string): ScratchProject {
  const dir = mkdtempSync(join(tmpdir(), `teamchat-bench-${label}-`));
  // Timestamps kept: bin/teamchat.js runs dist/cli.cjs only while it is newer than dist/.tsbuildinfo.
  for (const path of COPIED) cpSync(join(root, path), join(dir, path), { recursive: true, preserveTimestamps: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'spec'));
  writeFileSync(join(dir, 'spec/openapi.json'), JSON.stringify(doc, null, 2));
  return { dir, spec: 'spec/openapi.json', operations: operationCount(doc), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
