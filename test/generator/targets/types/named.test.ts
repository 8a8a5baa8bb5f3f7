/**
 * The named types of types.ts: every name the module declares is one that
 * `generator/model/names.ts` knows (`TYPES_MODULE_NAMES`, the operation
 * aliases) or a schema's named type, so the clash rule there sees every name
 * a schema could collide with; and each schema's named type is declared.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';
import { OPERATION_TYPE_SUFFIXES, TYPES_MODULE_NAMES } from '../../../../generator/model/names.js';
import type { ApiModel } from '../../../../generator/model/types.js';
import { target as types } from '../../../../generator/targets/types/index.js';
import { fixtureModel } from '../../../support/generator.js';

async function typesModule(model: ApiModel): Promise<string> {
  const [file] = await types.generate({
    model,
    root: '.',
    outDir: 'out',
    templatesDir: 'templates',
    command: 'npm run generate',
    readExisting: () => undefined,
    report: () => {},
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
  });
  return file!.contents;
}

/** The top-level type and interface names a module declares, exported or not. */
function declared(text: string): string[] {
  const source = ts.createSourceFile('types.ts', text, ts.ScriptTarget.ES2022);
  return source.statements.flatMap((s) => (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s) ? [s.name.text] : []));
}

describe('named types in types.ts', () => {
  // hostile: schemas named like the module's names, and openapi-typescript's own `WithRequired`; readwrite: the markers.
  it.each(['hostile', 'readwrite', 'basic'])('declares only names the model knows, each once (%s fixture)', async (fixture) => {
    const model = await fixtureModel(fixture);
    const names = declared(await typesModule(model));
    const schemaTypes = model.schemas.map((s) => s.names.type!);
    const aliases = model.operations.flatMap((o) => OPERATION_TYPE_SUFFIXES.map((suffix) => `${o.names.pascal}${suffix}`));
    const known = new Set([...TYPES_MODULE_NAMES, ...aliases, ...schemaTypes]);
    expect(names.filter((name) => !known.has(name))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    expect(schemaTypes.filter((type) => !names.includes(type))).toEqual([]);
    expect(aliases.filter((alias) => !names.includes(alias))).toEqual([]);
  });

  it('gives each schema a named type that says which schema it is', async () => {
    const model = await fixtureModel('hostile');
    const text = await typesModule(model);
    for (const schema of model.schemas) {
      expect(text).toContain(`export type ${schema.names.type} = components["schemas"][${JSON.stringify(schema.name)}];`);
    }
    expect(Object.fromEntries(model.schemas.map((s) => [s.name, s.names.type]))).toMatchObject({
      DeleteParams: 'DeleteParams3',
      delete_params: 'DeleteParams2',
      class: 'Class',
      UploadFile: 'UploadFile2',
      WithRequired: 'WithRequired2',
    });
  });
});
