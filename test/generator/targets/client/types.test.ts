import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureModel } from '../../../fixtures/client/model.js';
import { emitClient, removeEmitted, fixtureCompanions, root } from '../../../fixtures/client/harness.js';

afterAll(removeEmitted);

/** Uses of the generated client that must type-check; each `@ts-expect-error` must really be an error. */
const usage = `
import { createClient, isApiError, ApiError, type ErrorBodyFor, type UnknownErrorBody } from './client.js';
import type { ErrorBody } from './types.js';

declare const e: unknown;
if (isApiError(e, 'STREAM_DOES_NOT_EXIST')) {
  const id: number = e.stream_id;
  const fromBody: number = e.body.stream_id;
  const code: 'STREAM_DOES_NOT_EXIST' = e.code;
  const status: number = e.status;
  void [id, fromBody, code, status];
}
if (isApiError(e, 'INVITATION_FAILED')) {
  const sent: boolean = e.sent_invitations;
  const first: [string, string, boolean] | undefined = e.errors[0];
  void [sent, first];
}
if (isApiError(e, 'RATE_LIMIT_HIT')) {
  const wait: number = e['retry-after'];
  void wait;
}
if (isApiError(e)) {
  // @ts-expect-error -- extra fields only after narrowing by code
  void e.stream_id;
  const code: string = e.code;
  const body: ErrorBody | UnknownErrorBody = e.body;
  if (e.is('STREAM_DOES_NOT_EXIST')) {
    const id: number = e.stream_id;
    void id;
  }
  void [code, body];
}
// @ts-expect-error -- the code guard takes only codes the spec knows
isApiError(e, 'NOT_A_CODE');
const unknownBody: UnknownErrorBody = {} as ErrorBodyFor<'SOMETHING_NEW'>;
const unknownError = new ApiError<'SOMETHING_NEW'>('x', 400, { result: 'error', msg: '', code: 'SOMETHING_NEW', extra: 1 });
void [unknownBody, unknownError];

const client = createClient({ baseUrl: 'http://127.0.0.1:9991', email: 'a@example.com', apiKey: 'k' });
async function use() {
  const key: string = (await client.fetchApiKey({ username: 'u', password: 'p' })).api_key;
  const url: string = (await client.createVideoCall()).url;
  await client.getOwnUser();
  await client.delete({ widget_id: 1 });
  await client.updateStream({ stream_id: 1, folder_id: null, can_add_subscribers_group: { new: 5 } });
  await client.uploadFile({ file: { filename: 'a.txt', data: new Uint8Array([1]) } });
  // @ts-expect-error -- stream_id is required
  await client.updateStream({});
  // @ts-expect-error -- folder_id is an integer or null
  await client.updateStream({ stream_id: 1, folder_id: 'x' });
  // @ts-expect-error -- required parameters cannot be left out
  await client.fetchApiKey();
  // @ts-expect-error -- no such operation
  await client.sendMessage({});
  void [key, url];
}
void use;
`;

let previous: ts.Program | undefined;

function typeCheck(dir: string, options: ts.CompilerOptions): string[] {
  const files = ['client.ts', 'types.ts', 'validators.ts', 'usage.ts'].map((f) => join(dir, f));
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noUnusedLocals: true,
    noImplicitOverride: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    ...options,
  };
  // Reusing the previous program skips re-parsing the lib files when the options match.
  const program = ts.createProgram(files, compilerOptions, undefined, previous);
  previous = program;
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('generated client types', () => {
  const dir = emitClient(fixtureModel, fixtureCompanions());
  writeFileSync(join(dir, 'usage.ts'), usage);

  it('type-check with browser globals only (DOM lib, no Node types)', () => {
    expect(typeCheck(dir, { types: [] })).toEqual([]);
  });

  it('reports misuse (the check can fail)', () => {
    writeFileSync(join(dir, 'usage.ts'), `${usage}\nawait client.updateStream({ stream_id: '1' });\n`);
    const diagnostics = typeCheck(dir, { types: [] });
    writeFileSync(join(dir, 'usage.ts'), usage);
    expect(diagnostics.join('\n')).toMatch(/Type 'string' is not assignable to type 'number'/);
  });

  it('type-check in a Node project without the DOM lib', () => {
    expect(
      typeCheck(dir, { lib: ['lib.es2022.d.ts'], types: ['node'], typeRoots: [join(root, 'node_modules/@types')] }),
    ).toEqual([]);
  });
});
