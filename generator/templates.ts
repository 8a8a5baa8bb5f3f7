/**
 * Template lookup: a user's templates folder holds files laid out like the
 * built-in `templates/` (`<target>/<file>.hbs`); each replaces the built-in
 * file of the same name. Targets read one folder, so the two are merged into
 * a folder named by the digest of its contents (unchanged templates, same
 * folder, same compiled-template cache entry).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { builtinTemplatesDir } from './assets.js';
import { ConfigError } from './config.js';

/** Every template file under `dir`, as POSIX paths relative to it, sorted. */
export function templateFiles(dir: string): string[] {
  const files: string[] = [];
  const visit = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.hbs')) files.push(relative(dir, path).split('\\').join('/'));
    }
  };
  visit(dir);
  return files.sort();
}

/** The folder targets read: the built-in templates, or a merge with the user's overrides. */
export function effectiveTemplatesDir(userDir: string | undefined): string {
  if (userDir === undefined) return builtinTemplatesDir;
  if (!existsSync(userDir) || !statSync(userDir).isDirectory()) throw new ConfigError(`templates: ${userDir} is not a folder`);
  const builtin = new Set(templateFiles(builtinTemplatesDir));
  const overrides = templateFiles(userDir);
  const strays = overrides.filter((file) => !builtin.has(file));
  if (strays.length > 0) {
    throw new ConfigError(
      `templates: ${strays.join(', ')} in ${userDir} replace${strays.length === 1 ? 's' : ''} no built-in template; built-in templates: ${[...builtin].join(', ')}`,
    );
  }
  const digest = createHash('sha256');
  for (const file of builtin) digest.update(`${file}\0${readFileSync(join(builtinTemplatesDir, file))}\0`);
  for (const file of overrides) digest.update(`override ${file}\0${readFileSync(join(userDir, file))}\0`);
  const merged = join(tmpdir(), `teamchat-templates-${digest.digest('hex').slice(0, 16)}`);
  if (existsSync(merged)) return merged;
  // Built in a private folder and renamed into place, so a concurrent run never sees half a merge.
  const staging = `${merged}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(builtinTemplatesDir, staging, { recursive: true });
  for (const file of overrides) {
    mkdirSync(dirname(join(staging, file)), { recursive: true });
    writeFileSync(join(staging, file), readFileSync(join(userDir, file)));
  }
  try {
    renameSync(staging, merged);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(merged)) throw error;
  }
  return merged;
}
