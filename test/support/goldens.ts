/**
 * Golden output of the fixture documents
 * (test/fixtures/{schemas,operations}/<family>/golden/): the per-document files
 * compared byte for byte, the runtime folder compared with `runtime/` (it is
 * the same for every document, so no copy is stored; `npm run lint`
 * type-checks the goldens against it, test/support/type-check-goldens.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_TARGET_OPTIONS } from '../../generator/config.js';
import type { ApiModel } from '../../generator/model/types.js';
import { target as typesTarget } from '../../generator/targets/types/index.js';
import { renderValidators } from '../../generator/targets/validators/index.js';
import { TEMPLATES_DIR } from '../fixtures/validators/load.js';
import { repoRoot } from './process.js';

/**
 * A runtime module (`validators-runtime/index.ts`, ...) as the generator writes it:
 * the banner of `beside` (another file of the same output), a blank line, then
 * the module as it sits in `runtime/`.
 */
export function runtimeAsWritten(file: string, beside: string): string {
  const banner = beside.slice(0, beside.indexOf('\n\n'));
  return `${banner}\n\n${readFileSync(join(repoRoot, 'runtime', file), 'utf8')}`;
}

/** A runtime folder as the generator writes it: each module's path in the output and its text, as `runtimeAsWritten` gives it. */
export function runtimeFolderAsWritten(folder: string, beside: string): Map<string, string> {
  const names = readdirSync(join(repoRoot, 'runtime', folder)).filter((name) => name.endsWith('.ts')).sort();
  return new Map(names.map((name) => [`${folder}/${name}`, runtimeAsWritten(`${folder}/${name}`, beside)]));
}

/** The validators and types targets' output for `model`: `validators.ts` and `types.ts` as in `golden`, the runtime as in `runtime/`. */
export async function expectGoldenValidatorsAndTypes(model: ApiModel, golden: string): Promise<void> {
  const source = renderValidators(model, TEMPLATES_DIR, 'npm run generate');
  await expect(source.validators).toMatchFileSnapshot(join(golden, 'validators.ts'));
  expect(source.runtime).toEqual(runtimeFolderAsWritten('validators-runtime', source.validators));
  const [types] = await typesTarget.generate({
    model,
    root: repoRoot,
    outDir: 'golden',
    templatesDir: TEMPLATES_DIR,
    command: 'npm run generate',
    readExisting: () => undefined,
    report: () => {},
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
  });
  await expect(types!.contents).toMatchFileSnapshot(join(golden, 'types.ts'));
}
