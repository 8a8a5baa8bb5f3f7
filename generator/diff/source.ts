/**
 * One side of a diff: a spec file on disk, or the spec folder of a git
 * revision (read with `git archive` into a temporary tree, then bundled by
 * the same loader as `teamchat generate`).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError } from '../config.js';
import { loadSpec, SpecError } from '../load/index.js';
import { buildModel } from '../model/build.js';
import type { ApiModel } from '../model/types.js';

const run = promisify(execFile);

export interface Side {
  /** How the side is named in output: the file path, the ref as given, or `working tree`. */
  label: string;
  model: ApiModel;
}

/**
 * Reads `spec`: a file path (relative to `cwd`), or a git revision whose
 * `specPath` (relative to the project `root`) is read. An existing file wins
 * over a revision of the same name.
 */
export async function readSide(spec: string, cwd: string, root: string, specPath: string): Promise<Side> {
  const asFile = isAbsolute(spec) ? spec : resolve(cwd, spec);
  if (existsSync(asFile) && statSync(asFile).isFile()) return { label: spec, model: buildModel(await loadSpec(asFile, cwd)) };
  return readRevision(spec, root, specPath);
}

/** The working tree's spec. */
export async function readWorkingTree(root: string, specPath: string): Promise<Side> {
  const file = resolve(root, specPath);
  if (!existsSync(file)) throw new ConfigError(`no spec at ${specPath} in the working tree (give a head, or --spec)`);
  return { label: 'working tree', model: buildModel(await loadSpec(file, root)) };
}

async function readRevision(ref: string, root: string, specPath: string): Promise<Side> {
  if (ref.startsWith('-')) throw new ConfigError(`\`${ref}\` is neither a spec file nor a git revision`);
  const top = await gitTop(root, ref);
  const commit = await git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).then((out) => out.trim(), () => undefined);
  if (commit === undefined) throw new ConfigError(`\`${ref}\` is neither a spec file nor a git revision`);
  // The spec folder as the repository stores it: the folder of the root file, relative to the repository top.
  const specFile = relative(top, resolve(root, specPath)).split('\\').join('/');
  const folder = dirname(specFile);
  const tree = mkdtempSync(join(tmpdir(), 'teamchat-diff-'));
  try {
    const listed = await git(top, ['ls-tree', '-r', '--name-only', commit, '--', folder === '.' ? specFile : folder]);
    if (!listed.split('\n').includes(specFile)) throw new ConfigError(`${ref} has no ${specFile}`);
    await extract(top, commit, folder === '.' ? specFile : folder, tree);
    try {
      return { label: ref, model: buildModel(await loadSpec(specFile, tree)) };
    } catch (error) {
      // Name the revision in the location of spec errors: `main:spec/paths/x.yaml:12: ...`.
      if (error instanceof SpecError) throw new SpecError(`${ref}:${error.file}`, error.line, error.detail, error.column);
      throw error;
    }
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

async function gitTop(root: string, ref: string): Promise<string> {
  try {
    return (await git(root, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    throw new ConfigError(`\`${ref}\` is not a file, and ${root} is not in a git repository`);
  }
}

/** `git archive <commit> <path> | tar -x -C <dir>`, without a shell. */
async function extract(top: string, commit: string, path: string, dir: string): Promise<void> {
  const archive = join(dir, '.teamchat-diff.tar');
  await git(top, ['archive', '--format=tar', `--output=${archive}`, commit, '--', path]);
  await run('tar', ['-xf', archive, '-C', dir]);
  rmSync(archive);
}

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}
