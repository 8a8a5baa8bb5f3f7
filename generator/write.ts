/**
 * Write: puts the targets' files on disk once all targets ran. LF endings;
 * only files whose bytes changed are written, each through a temporary file
 * (written as soon as its target has finished) renamed over the old one
 * (atomic within its directory) once every target has; a folder that did
 * not exist is written whole under a temporary name and renamed once. In
 * check mode nothing is written and the stale or missing files are listed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
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
  // Most files have no carriage return: a scan finds that without the regex's copy.
  return contents.includes('\r') ? contents.replace(/\r\n?/g, '\n') : contents;
}

/** Refuses duplicate paths and paths outside the root before anything is written; `seen` holds the paths of files checked earlier. */
export function checkPaths(root: string, files: readonly OutputFile[], seen = new Set<string>()): void {
  for (const file of files) {
    const rel = relative(root, resolve(root, file.path));
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      throw new Error(`output path ${file.path} is outside the project`);
    }
    if (seen.has(rel)) throw new Error(`two outputs share the path ${file.path}`);
    seen.add(rel);
  }
}

/** Every file at once: staged, then put in place. */
export async function writeFiles(root: string, files: readonly OutputFile[], options: { check: boolean }): Promise<FileResult[]> {
  checkPaths(root, files);
  const writer = new Writer(root, options);
  try {
    writer.stage(files);
  } catch (error) {
    writer.discard();
    throw error;
  }
  const results = writer.commit(files);
  return files.map((file) => results.get(file)!);
}

/**
 * A run's writes in two steps, so the files of the targets that finished
 * can be written while others still work, and nothing is in place unless
 * all of them succeeded: `stage` compares each file with the one on disk
 * and writes a changed one under a temporary name beside it; `commit`
 * renames them all into place (atomic per file); `discard` removes what
 * `stage` wrote, and the folders it created. In check mode nothing is
 * written and the results say which files are stale or missing.
 *
 * A folder that does not exist yet (a first run's whole output folder) is
 * staged as a whole: made under a temporary name beside where it belongs,
 * its files written there under their own names, and renamed into place
 * once, instead of a temporary file and a rename per file.
 *
 * Synchronous file calls inside: one at a time either way, and each
 * `fs.promises` call is several trips through the thread pool, which on a
 * busy machine left a run of a thousand files mostly waiting.
 */
export class Writer {
  readonly #root: string;
  readonly #check: boolean;
  /** Paths staged so far, relative to the root: two outputs may not share one. */
  readonly #seen = new Set<string>();
  /** Whether each folder existed when first asked about. */
  readonly #folders = new Map<string, boolean>();
  /** Folders made sure of, and those this run created (innermost last). */
  readonly #made = new Set<string>();
  readonly #created: string[] = [];
  /** For each folder that did not exist, where it is staged: `temp` stands for `absolute` until commit. */
  readonly #staged = new Map<string, { temp: string; absolute: string }>();
  readonly #results = new Map<OutputFile, FileResult>();
  /** Files and staged folders to rename into place, in the order they were made. */
  readonly #pending: { temp: string; absolute: string }[] = [];

  constructor(root: string, options: { check: boolean }) {
    this.#root = resolve(root);
    this.#check = options.check;
  }

  stage(files: readonly OutputFile[]): void {
    checkPaths(this.#root, files, this.#seen);
    for (const file of files) {
      const absolute = resolve(this.#root, file.path);
      const contents = normalise(file.contents);
      const existing = readExisting(absolute, this.#folders, this.#root);
      // A scaffold's contents were already merged with the existing file by its target,
      // so for both kinds "differs" means the target wants new bytes.
      if (existing === contents) {
        this.#results.set(file, { path: file.path, status: 'unchanged' });
      } else if (this.#check) {
        this.#results.set(file, { path: file.path, status: existing === undefined ? 'missing' : 'stale' });
      } else {
        this.#write(absolute, contents);
        this.#results.set(file, { path: file.path, status: 'written' });
      }
    }
  }

  /** Puts every staged file in place; the result of each of `files`, all of which must have been staged. */
  commit(files: readonly OutputFile[]): Map<OutputFile, FileResult> {
    const missing = files.find((file) => !this.#results.has(file));
    if (missing !== undefined) {
      this.discard();
      throw new Error(`${missing.path} was produced but never staged`);
    }
    let placed = 0;
    try {
      for (const { temp, absolute } of this.#pending) {
        if (this.#staged.get(absolute)?.temp === temp) placeFolder(temp, absolute);
        else renameSync(temp, absolute);
        placed++;
      }
    } catch (error) {
      this.#pending.splice(0, placed);
      this.discard();
      throw error;
    }
    this.#pending.length = 0;
    return this.#results;
  }

  /** Removes the temporary files and staged folders not yet in place and the folders this run created, if nothing else is in them. */
  discard(): void {
    for (const { temp } of this.#pending.splice(0)) rmSync(temp, { recursive: true, force: true });
    this.#staged.clear();
    for (const dir of this.#created.splice(0).reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        // Not empty (a file of this run already in place, or someone else's): left as it is.
      }
    }
  }

  /** Writes a changed file: into its folder's staged copy when the folder is new, else under a temporary name beside it. */
  #write(absolute: string, contents: string): void {
    const dir = dirname(absolute);
    const staged = this.#stagedFolder(dir);
    if (staged !== undefined) {
      // Inside a staged folder every name is this run's own, and the whole folder goes on discard.
      const at = join(staged.temp, relative(staged.absolute, absolute));
      if (!this.#made.has(dirname(at))) {
        mkdirSync(dirname(at), { recursive: true });
        this.#made.add(dirname(at));
      }
      writeFileSync(at, contents, 'utf8');
      return;
    }
    this.#makeFolder(dir);
    const temp = resolve(dir, `.${basename(absolute)}.${process.pid}.${written++}.tmp`);
    try {
      writeFileSync(temp, contents, 'utf8');
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    this.#pending.push({ temp, absolute });
  }

  /**
   * The staged folder `dir` belongs in, when `dir` did not exist when first
   * asked about: the outermost such folder, below one that exists, is made
   * under a temporary name beside where it belongs.
   */
  #stagedFolder(dir: string): { temp: string; absolute: string } | undefined {
    if (dir === this.#root || this.#folders.get(dir) !== false) return undefined;
    let top = dir;
    for (let parent = dirname(top); parent !== this.#root && parent !== top && this.#folders.get(parent) === false; parent = dirname(top)) top = parent;
    let staged = this.#staged.get(top);
    if (staged === undefined) {
      const parent = dirname(top);
      this.#makeFolder(parent);
      staged = { temp: resolve(parent, `.${basename(top)}.${process.pid}.${written++}.tmp`), absolute: top };
      mkdirSync(staged.temp);
      this.#staged.set(top, staged);
      this.#pending.push(staged);
    }
    return staged;
  }

  /** Makes sure `dir` exists, remembering the folders this run created. */
  #makeFolder(dir: string): void {
    if (this.#made.has(dir)) return;
    const first = mkdirSync(dir, { recursive: true });
    if (first !== undefined) {
      // `first` is the outermost folder mkdir created; every folder from it down to `dir` is new.
      const made: string[] = [];
      for (let at = dir; ; at = dirname(at)) {
        made.unshift(at);
        if (at === first || dirname(at) === at) break;
      }
      this.#created.push(...made);
    }
    this.#made.add(dir);
  }
}

/**
 * The file's text, or undefined when it does not exist. `folders` remembers
 * whether each folder existed when first asked, so the files of a fresh
 * output folder are known to be missing without a failed read (and the
 * error object it makes) per file.
 */
function readExisting(absolute: string, folders: Map<string, boolean>, root: string): string | undefined {
  const dir = dirname(absolute);
  if (!folderExists(dir, folders, root)) return undefined;
  try {
    return readFileSync(absolute, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Renames a staged folder into place. Should a folder of that name have
 * appeared since (another process), its files are moved in one by one.
 */
function placeFolder(temp: string, absolute: string): void {
  try {
    renameSync(temp, absolute);
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
  }
  for (const entry of readdirSync(temp, { withFileTypes: true })) {
    const from = join(temp, entry.name);
    const to = join(absolute, entry.name);
    if (entry.isDirectory() && existsSync(to)) placeFolder(from, to);
    else renameSync(from, to);
  }
  rmdirSync(temp);
}

/**
 * Whether `dir` existed when first asked about. A missing folder's parents
 * are asked about too, up to the root, so that the outermost missing one
 * can be staged as a whole.
 */
function folderExists(dir: string, folders: Map<string, boolean>, root: string): boolean {
  let exists = folders.get(dir);
  if (exists !== undefined) return exists;
  exists = existsSync(dir);
  folders.set(dir, exists);
  if (!exists && dir !== root && dirname(dir) !== dir) folderExists(dirname(dir), folders, root);
  return exists;
}

/** Numbers the temporary files of this process; with the pid, a name no other writer uses. */
let written = 0;

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
