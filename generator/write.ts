/**
 * Write: puts every target's files on disk in one go, after all targets ran.
 * LF endings; only files whose bytes changed are written, each through a
 * temporary file renamed over the old one (atomic within its directory).
 * In check mode nothing is written and the stale or missing files are listed.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { BANNER_MARK } from './targets/banner.js';
import type { OutputFile } from './targets/types.js';

/** `removed`/`obsolete`: a generated file no target produces any more, deleted (or, in check mode, listed). */
export type FileStatus = 'written' | 'unchanged' | 'stale' | 'missing' | 'removed' | 'obsolete';

export interface FileResult {
  path: string;
  status: FileStatus;
}

export function normalise(contents: string): string {
  return contents.replace(/\r\n?/g, '\n');
}

/** Refuses duplicate paths and paths outside the root before anything is written. */
export function checkPaths(root: string, files: readonly OutputFile[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    const rel = relative(root, resolve(root, file.path));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      throw new Error(`output path ${file.path} is outside the project`);
    }
    if (seen.has(rel)) throw new Error(`two outputs share the path ${file.path}`);
    seen.add(rel);
  }
}

/**
 * Synchronous file calls inside: one at a time either way, and each
 * `fs.promises` call is several trips through the thread pool, which on a
 * busy machine left a run of a thousand files mostly waiting.
 */
export async function writeFiles(root: string, files: readonly OutputFile[], options: { check: boolean }): Promise<FileResult[]> {
  checkPaths(root, files);
  const results: FileResult[] = [];
  const made = new Set<string>();
  const folders = new Map<string, boolean>();
  for (const file of files) {
    const absolute = resolve(root, file.path);
    const contents = normalise(file.contents);
    const existing = readExisting(absolute, folders);
    // A scaffold's contents were already merged with the existing file by its target,
    // so for both kinds "differs" means the target wants new bytes.
    if (existing === contents) {
      results.push({ path: file.path, status: 'unchanged' });
    } else if (options.check) {
      results.push({ path: file.path, status: existing === undefined ? 'missing' : 'stale' });
    } else {
      writeAtomic(absolute, contents, made);
      results.push({ path: file.path, status: 'written' });
    }
  }
  return results;
}

/**
 * The file's text, or undefined when it does not exist. `folders` remembers
 * whether each folder existed when first asked, so the files of a fresh
 * output folder are known to be missing without a failed read (and the
 * error object it makes) per file.
 */
function readExisting(absolute: string, folders: Map<string, boolean>): string | undefined {
  const dir = dirname(absolute);
  let exists = folders.get(dir);
  if (exists === undefined) folders.set(dir, (exists = existsSync(dir)));
  if (!exists) return undefined;
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/** Numbers the temporary files of this process; with the pid, a name no other writer uses. */
let written = 0;

/** `made`: folders this run has created already. */
function writeAtomic(absolute: string, contents: string, made: Set<string>): void {
  const dir = dirname(absolute);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  const temp = resolve(dir, `.${basename(absolute)}.${process.pid}.${written++}.tmp`);
  try {
    writeFileSync(temp, contents, 'utf8');
    renameSync(temp, absolute);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Generated files under `outDir` that no target produced this run (say, the
 * docs page of an operation removed from the spec): deleted, or in check mode
 * listed. Only files carrying the generator's banner count, so nothing a
 * person put there is touched.
 */
export async function removeObsolete(root: string, outDir: string, produced: readonly OutputFile[], options: { check: boolean }): Promise<FileResult[]> {
  const wanted = new Set(produced.map((file) => resolve(root, file.path)));
  const results: FileResult[] = [];
  for (const absolute of await listFiles(resolve(root, outDir))) {
    if (wanted.has(absolute) || !(await carriesBanner(absolute))) continue;
    const path = relative(root, absolute).split('\\').join('/');
    if (!options.check) await rm(absolute, { force: true });
    results.push({ path, status: options.check ? 'obsolete' : 'removed' });
  }
  return results.sort((a, b) => a.path.localeCompare(b.path));
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)) : Promise.resolve(entry.isFile() ? [join(dir, entry.name)] : []))),
  );
  return nested.flat();
}

async function carriesBanner(absolute: string): Promise<boolean> {
  const handle = await open(absolute, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').includes(BANNER_MARK);
  } finally {
    await handle.close();
  }
}
