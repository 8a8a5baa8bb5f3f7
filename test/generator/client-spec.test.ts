import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load/index.js';
import type { ApiModel } from '../../generator/model/types.js';
import { buildModel } from '../../generator/model/build.js';
import { emitClient, importModule, recordingFetch, root } from '../fixtures/client/harness.js';
import { seedRequests } from '../fixtures/client/seed-requests.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the client is emitted at test time, so its module is untyped here */
type Loaded = Record<string, any>;

const email = 'dana@example.com';
const apiKey = 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1';
const authorization = `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;

let model: ApiModel;
let mod: Loaded;

beforeAll(async () => {
  model = buildModel(await loadSpec('spec/openapi.yaml', root));
  // Only client.ts: its imports of types and validators are type-only or lazy.
  mod = await importModule<Loaded>(emitClient(model, {}), 'client.ts');
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
