/**
 * Write: puts every target's files on disk in one go, after all targets ran.
 * LF endings; only files whose bytes changed are written, each through a
 * temporary file renamed over the old one (atomic within its directory).
 * In check mode nothing is written and the stale or missing files are listed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import type { OutputFile } from './targets/types.js';

export type FileStatus = 'written' | 'unchanged' | 'stale' | 'missing';

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

export async function writeFiles(root: string, files: readonly OutputFile[], options: { check: boolean }): Promise<FileResult[]> {
  checkPaths(root, files);
  const results: FileResult[] = [];
  for (const file of files) {
    const absolute = resolve(root, file.path);
    const contents = normalise(file.contents);
    const existing = await readFile(absolute, 'utf8').catch(() => undefined);
    // A scaffold's contents were already merged with the existing file by its target,
    // so for both kinds "differs" means the target wants new bytes.
    if (existing === contents) {
      results.push({ path: file.path, status: 'unchanged' });
    } else if (options.check) {
      results.push({ path: file.path, status: existing === undefined ? 'missing' : 'stale' });
    } else {
      await writeAtomic(absolute, contents);
      results.push({ path: file.path, status: 'written' });
    }
  }
  return results;
}

async function writeAtomic(absolute: string, contents: string): Promise<void> {
  const dir = dirname(absolute);
  await mkdir(dir, { recursive: true });
  const temp = resolve(dir, `.${basename(absolute)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, contents, 'utf8');
    await rename(temp, absolute);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
