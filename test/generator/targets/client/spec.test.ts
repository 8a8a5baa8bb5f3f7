import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../../generator/load/index.js';
import type { ApiModel } from '../../../../generator/model/types.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { Target } from '../../../../generator/targets/types.js';
import { target as typesTarget } from '../../../../generator/targets/types/index.js';
import { target as validatorsTarget } from '../../../../generator/targets/validators/index.js';
import { emitClient, removeEmitted, importModule, recordingFetch, root } from '../../../fixtures/client/harness.js';
import { seedRequests } from '../../../fixtures/client/seed-requests.js';
import { DEFAULT_TARGET_OPTIONS } from '../../../../generator/config.js';

afterAll(removeEmitted);

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is emitted at test time, so its module is untyped here */
type Loaded = Record<string, any>;

const email = 'dana@example.com';
const apiKey = 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1';
const authorization = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

let model: ApiModel;
let dir: string;
let mod: Loaded;

beforeAll(async () => {
  model = buildModel(await loadSpec('spec/openapi.yaml', root));
  dir = emitClient(model, {});
  const ctx = {
    model,
    root,
    outDir: 'generated',
    templatesDir: join(root, 'templates'),
    command: 'npm run generate',
    readExisting: () => undefined,
    options: DEFAULT_TARGET_OPTIONS,
    filesOf: async () => [],
    produces: () => true,
    report: () => undefined,
  };
  for (const target of [typesTarget, validatorsTarget] as Target[]) {
    for (const file of await target.generate(ctx)) {
      const path = join(dir, file.path.replace(/^generated\//, ''));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.contents);
    }
  }
  mod = await importModule<Loaded>(dir, 'client.ts');
});

describe('client for the real spec', () => {
  it('has exactly the seed’s operations', () => {
    const methods = Object.keys(mod.createClient({ baseUrl: 'http://x', email, apiKey })).sort();
    expect(methods).toEqual(seedRequests.map((r) => r.operation).sort());
    expect(methods).toHaveLength(22);
  });

  it.each(seedRequests.map((r) => [r.operation, r] as const))('%s puts the seed’s request on the wire', async (name, want) => {
    const { fetch, requests } = recordingFetch();
    const client = mod.createClient({ baseUrl: 'http://127.0.0.1:9991', email, apiKey, fetch });
    await client[name](want.params);

    const headers: Record<string, string> = { accept: 'application/json' };
    if (want.auth) headers['authorization'] = authorization;
    if (want.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    expect(requests).toHaveLength(1);
    const [got] = requests;
    expect({ method: got!.method, url: got!.url, headers: got!.headers }).toEqual({
      method: want.method,
      url: `http://127.0.0.1:9991/api/v1${want.path}`,
      headers,
    });
    if (want.file) {
      const entries = got!.body as [string, File][];
      expect(entries.map(([field]) => field)).toEqual([want.file.field]);
      const file = entries[0]![1];
      expect([file.name, file.type, await file.text()]).toEqual([want.file.filename, want.file.type, want.file.text]);
    } else {
      expect(got!.body).toBe(want.form ? new URLSearchParams(want.form).toString() : undefined);
    }
  });

  it.each([
    ['createVideoCall', undefined, 492, undefined, 493],
    ['updateStream', { stream_id: 2, topics_policy: 'inherit' }, 391, 'topics_policy', 392],
    ['updateStream', { stream_id: 2, can_delete_own_message_group: { new: 3 } }, 406, 'can_delete_own_message_group', 407],
    ['createMessageReminder', { message_id: 101, note: 'x' }, 414, 'note', 415],
    ['sendInvites', { invitee_emails: 'a@example.com', stream_ids: [], welcome_message_custom_text: '' }, 415, 'welcome_message_custom_text', 416],
  ])('%s refuses feature levels from the seed (%#)', async (name, params, level, parameter, required) => {
    const { fetch, requests } = recordingFetch();
    const client = mod.createClient({ baseUrl: 'http://127.0.0.1:9991', email, apiKey, fetch, featureLevel: level });
    await expect(client[name](params)).rejects.toMatchObject({
      name: 'UnsupportedFeatureError',
      parameter,
      requiredLevel: required,
      serverLevel: level,
    });
    expect(requests).toEqual([]);
  });

  it('sends everything at the highest feature level the spec names', async () => {
    const { fetch, requests } = recordingFetch();
    const client = mod.createClient({ baseUrl: 'http://127.0.0.1:9991', email, apiKey, fetch, featureLevel: model.maxFeatureLevel });
    for (const want of seedRequests) await client[want.operation](want.params);
    expect(requests).toHaveLength(seedRequests.length);
  });
});

describe('validateResponses with the generated validators', () => {
  // As our server answers: every response carries the feature level, which some operations declare as a required header.
  const levelHeader = (): Record<string, string> => ({ 'x-feature-level': String(model.maxFeatureLevel) });
  const respondWith = (status: number, body: unknown, headers: Record<string, string> = levelHeader()) => () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
  const call = (name: string, status: number, body: unknown, validateResponses: boolean | 'strict' = 'strict', headers?: Record<string, string>) => {
    const want = seedRequests.find((r) => r.operation === name)!;
    const { fetch } = recordingFetch(respondWith(status, body, headers));
    const client = mod.createClient({ baseUrl: 'http://127.0.0.1:9991', email, apiKey, fetch, validateResponses });
    return client[name](want.params);
  };

  it('accepts every success example of the spec in strict mode', async () => {
    let checked = 0;
    for (const operation of model.operations) {
      for (const example of operation.success.examples) {
        await expect(call(operation.names.camel, 200, example.value), `${operation.id} ${example.name}`).resolves.toEqual(example.value);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(model.operations.length);
  });

  it('turns every 400 example of the spec into an ApiError with its code', async () => {
    let checked = 0;
    for (const operation of model.operations) {
      for (const example of operation.errors.filter((e) => e.status === 400).flatMap((e) => e.examples)) {
        const value = example.value as { code: string };
        await expect(call(operation.names.camel, 400, value), `${operation.id} ${example.name}`).rejects.toMatchObject({
          name: 'ApiError',
          code: value.code,
        });
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('checks the declared response headers: a required one missing, or one that is not its type', async () => {
    const operation = model.operations.find((o) => o.success.headers.some((h) => h.required && h.name.toLowerCase() === 'x-feature-level') && o.success.examples.length > 0)!;
    const example = operation.success.examples[0]!.value;
    const issuesOf = async (headers: Record<string, string>) => {
      const error = await call(operation.names.camel, 200, example, true, headers).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ResponseValidationError', status: 200 });
      return (error as { issues: unknown[] }).issues;
    };
    expect(await issuesOf({})).toEqual([{ path: 'header x-feature-level', message: 'is required' }]);
    expect(await issuesOf({ 'x-feature-level': 'high' })).toEqual([{ path: 'header x-feature-level', message: expect.stringContaining('integer') }]);
    await expect(call(operation.names.camel, 200, example, true, { 'X-Feature-Level': '3' })).resolves.toEqual(example);
  });

  it('lists the issues of a body that breaks the spec', async () => {
    const body = { result: 'success', msg: '', user_id: 'five' };
    const error = await call('getOwnUser', 200, body).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ResponseValidationError', operation: 'getOwnUser', status: 200, body });
    expect((error as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain('$.user_id');
  });

  it('reports an unlisted field only in strict mode', async () => {
    const body = { result: 'success', msg: '', url: 'https://meet.example.com/lakeside-3f9a2c', surprise: 1 };
    await expect(call('createVideoCall', 200, body, true)).resolves.toEqual(body);
    await expect(call('createVideoCall', 200, body, 'strict')).rejects.toMatchObject({ name: 'ResponseValidationError' });
  });
});

/** Calls and narrowing that must type-check against the real generated types. */
const usage = `
import { createClient, isApiError } from './client.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:9991', email: 'dana@example.com', apiKey: 'k' });
export async function use(e: unknown): Promise<void> {
  const user: number = (await client.getOwnUser()).user_id;
  const url: string = (await client.createVideoCall()).url;
  const upload: string = (await client.uploadFile({ file: { filename: 'a.pdf', data: new Uint8Array(1) } })).url;
  await client.updatePresence({ status: 'active' });
  await client.createMessageReminder({ message_id: 101 });
  await client.updateStream({ stream_id: 2, folder_id: null, message_retention_days: 'unlimited', can_add_subscribers_group: { new: 9 } });
  await client.updateScheduledMessage({ scheduled_message_id: 21, to: [5, 6] });
  await client.sendInvites({ invitee_emails: 'a@example.com', stream_ids: [], welcome_message_custom_text: null });
  // @ts-expect-error -- stream_id is required
  await client.updateStream({});
  void [user, url, upload];

  if (isApiError(e, 'STREAM_DOES_NOT_EXIST')) {
    const id: number = e.stream_id;
    void id;
  }
  if (isApiError(e, 'INVITATION_FAILED')) {
    const sent: boolean = e.sent_invitations;
    void sent;
  }
  if (isApiError(e, 'REACTION_DOES_NOT_EXIST')) {
    const code: 'REACTION_DOES_NOT_EXIST' = e.code;
    void code;
  }
  if (isApiError(e, 'RATE_LIMIT_HIT')) {
    const wait: number = e['retry-after'];
    void wait;
  }
}
`;

describe('client for the real spec, with the generated types and validators', () => {
  it('type-checks, including narrowing of every error code with extra fields', async () => {
    writeFileSync(join(dir, 'usage.ts'), usage);
    const program = ts.createProgram([join(dir, 'client.ts'), join(dir, 'usage.ts')], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName.slice(dir.length + 1) ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    expect(diagnostics).toEqual([]);
  });
});
