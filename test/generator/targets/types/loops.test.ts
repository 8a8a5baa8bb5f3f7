/**
 * Named schemas that reach themselves through unions, allOf or array items
 * only: openapi-typescript writes an interface member typed by itself, which
 * TypeScript refuses, so the types target types the closing reference
 * `unknown` and says so with the schema's file and line.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';
import { target as types } from '../../../../generator/targets/types/index.js';
import { fixtureModel } from '../../../support/generator.js';

it('cuts each loop once, where it closes, and reports the schema with file and line', async () => {
  const model = await fixtureModel('../schemas/recursion');
  const reports: string[] = [];
  const [file] = await types.generate({
    model,
    root: '/',
    outDir: 'out',
    templatesDir: 'templates',
    command: 'npm run generate',
    readExisting: () => undefined,
    report: (message) => reports.push(message),
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
  });
  const contents = file!.contents;
  expect(contents).toContain('ItemValue: string & (unknown | unknown[]);');
  expect(contents).toContain('ListB: string | unknown;');
  expect(contents).toContain('ListA: components["schemas"]["ListB"][];');
  // The object branch keeps its reference: TypeScript resolves an object type's members lazily.
  expect(contents).toMatch(/JsonValue: \(string \| number \| boolean \| null\) \| unknown\[\] \| \{\s*\[key: string\]: components\["schemas"\]\["JsonValue"\];/);
  // Through an object's property, recursion stays typed.
  expect(contents).toContain('children?: components["schemas"]["Tree"][];');
  expect(reports).toEqual([
    expect.stringMatching(/^test\/fixtures\/schemas\/recursion\/openapi\.yaml:\d+: types: schema `ItemValue` contains itself/),
    expect.stringMatching(/^test\/fixtures\/schemas\/recursion\/openapi\.yaml:\d+: types: schema `JsonValue` contains itself/),
    expect.stringMatching(/^test\/fixtures\/schemas\/recursion\/openapi\.yaml:\d+: types: schema `ListB` contains itself/),
  ]);
  const lines = readFileSync(new URL('../../../fixtures/schemas/recursion/openapi.yaml', import.meta.url), 'utf8').split('\n');
  expect(reports[0]).toContain(`openapi.yaml:${lines.indexOf('    ItemValue:') + 1}:`);
});
