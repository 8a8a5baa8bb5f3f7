/** readOnly/writeOnly: request types leave out readOnly fields, response types and named types writeOnly ones. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, expect, it } from 'vitest';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';
import { target as types } from '../../../../generator/targets/types/index.js';
import { fixtureModel, tempProject } from '../../../support/generator.js';

const project = tempProject('readwrite');
afterAll(() => project.dispose());

it('types requests without readOnly fields, and responses and named types without writeOnly ones', async () => {
  const model = await fixtureModel('readwrite');
  const [file] = await types.generate({
    model,
    root: project.root,
    outDir: 'out',
    templatesDir: 'templates',
    command: 'npm run generate',
    readExisting: () => undefined,
    report: () => {},
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
  });
  writeFileSync(join(project.root, 'types.ts'), file!.contents);
  writeFileSync(
    join(project.root, 'use.ts'),
    [
      "import type { Account, CreateAccountParams, CreateAccountResponse } from './types.js';",
      "export const request: CreateAccountParams = { email: 'a@example.com', password: 'secret' };",
      "export const response: CreateAccountResponse = { id: 1, email: 'a@example.com' };",
      '// @ts-expect-error the server assigns the id',
      "export const withId: CreateAccountParams = { id: 1, email: 'a@example.com' };",
      '// @ts-expect-error the password is never sent back',
      "export const withPassword: CreateAccountResponse = { id: 1, email: 'a@example.com', password: 'x' };",
      '// The named type is the schema as read: plain fields, no markers, like a response.',
      "export const account: Account = { id: 1, email: 'a@example.com' };",
      'export const id = (a: Account): number => a.id;',
      '// @ts-expect-error the named type has no writeOnly field either',
      "export const accountPassword: Account = { id: 1, email: 'a@example.com', password: 'x' };",
      '',
    ].join('\n'),
  );
  writeFileSync(join(project.root, 'package.json'), '{ "type": "module" }\n');
  const program = ts.createProgram([join(project.root, 'use.ts')], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  });
  expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
});
