/**
 * Where the package's own assets live: built-in templates and the runtime
 * modules that targets copy into their output. Found from this module's own
 * location, so the generator works the same from source (tsx), from `dist/`,
 * and from an installed package, whatever the current directory is.
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

/** Built-in handlebars templates, one folder per target. */
export const builtinTemplatesDir: string = join(packageRoot, 'templates');

/** Type-checked TypeScript modules that targets copy into generated output. */
export const runtimeDir: string = join(packageRoot, 'runtime');
