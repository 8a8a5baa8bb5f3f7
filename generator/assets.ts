/**
 * Where the generator's own assets live: built-in templates and the runtime
 * modules that targets copy into their output, under the package root
 * (`package-root.ts`).
 */
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export { packageRoot };

/** Built-in handlebars templates, one folder per target. */
export const builtinTemplatesDir: string = join(packageRoot, 'templates');

/** Type-checked TypeScript modules that targets copy into generated output. */
export const runtimeDir: string = join(packageRoot, 'runtime');
