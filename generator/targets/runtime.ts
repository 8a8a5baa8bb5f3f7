/**
 * Runtime modules: hand-written, type-checked TypeScript under `runtime/`
 * that targets copy into their output after the banner. Generated files
 * import them (`./client-runtime/<module>.js`, `./server-runtime.js`,
 * `./validators-runtime.js`); templates give only the per-API shape.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runtimeDir } from '../assets.js';
import type { ApiModel } from '../model/types.js';
import { banner } from './banner.js';

/** A module file of `runtime/`, or of one of its folders (`client/connection.ts`). */
export type RuntimeModule = 'server-runtime.ts' | 'validators-runtime.ts' | `${'client'}/${string}.ts`;

const sources = new Map<RuntimeModule, string>();

/** The source of a runtime module, as it sits in `runtime/`. */
export function runtimeSource(file: RuntimeModule): string {
  let text = sources.get(file);
  if (text === undefined) {
    text = readFileSync(join(runtimeDir, file), 'utf8').replace(/\r\n/g, '\n');
    sources.set(file, text);
  }
  return text;
}

/** A runtime module as a generated file: the banner, a blank line, the module. */
export function runtimeFile(file: RuntimeModule, model: Pick<ApiModel, 'title' | 'version'>, command: string): string {
  return `${banner(model, command, 'line')}\n\n${runtimeSource(file)}`;
}

/** The modules of a `runtime/` folder (`client`), sorted: each is copied as it is into one output folder. */
export function runtimeFolder(folder: 'client'): RuntimeModule[] {
  return readdirSync(join(runtimeDir, folder))
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => `${folder}/${file}` as RuntimeModule);
}
