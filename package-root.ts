/**
 * The package root: the folder holding `package.json`, `templates/`,
 * `runtime/` and the reference server's SQL migrations. The one module the
 * generator (`generator/assets.ts`) and the reference server
 * (`server/store/migrate.ts`) share, so neither imports the other. Found from
 * this module's own location, so it is the same from source (tsx), from
 * `dist/`, and from an installed package, whatever the current directory is.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`teamchat: cannot find the package folder above ${start}`);
    dir = parent;
  }
}

/** The folder holding the package's `package.json`, `templates/` and `runtime/`. */
export const packageRoot: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
