/**
 * Runtime modules: hand-written, type-checked TypeScript under `runtime/`
 * that targets copy into their output after the banner. Generated files
 * import them (`./client/runtime/<module>.js`, `./server-runtime/index.js`,
 * `./validators-runtime/index.js`, `../query-runtime/index.js`); templates
 * give only the per-API shape.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runtimeDir } from '../assets.js';
import type { ApiModel } from '../model/types.js';
import { banner } from './banner.js';

/** A folder of runtime modules, copied whole into the output (`runtime/client/` to `client/runtime/`, the others under their own name). */
export type RuntimeFolder = 'client' | 'server-runtime' | 'validators-runtime' | 'query-runtime';

/** A module file of one of the runtime folders (`client/connection.ts`). */
export type RuntimeModule = `${RuntimeFolder}/${string}.ts`;

const folders = new Map<RuntimeFolder, RuntimeModule[]>();

/** The modules of a runtime folder (`runtime/<folder>/*.ts`), in name order. */
export function runtimeModules(folder: RuntimeFolder): RuntimeModule[] {
  let modules = folders.get(folder);
  if (modules === undefined) {
    modules = readdirSync(join(runtimeDir, folder))
      .filter((name) => name.endsWith('.ts'))
      .sort()
      .map((name) => `${folder}/${name}` as RuntimeModule);
    folders.set(folder, modules);
  }
  return modules;
}

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

/** A runtime folder copied under its own name: each module's path in the output (`validators-runtime/index.ts`) and contents. */
export function runtimeFolderFiles(folder: Exclude<RuntimeFolder, 'client'>, model: Pick<ApiModel, 'title' | 'version'>, command: string): Map<string, string> {
  return new Map(runtimeModules(folder).map((module) => [module, runtimeFile(module, model, command)]));
}
