/**
 * Level-aware clients against a server of an older feature level (a real
 * HTTP server on 127.0.0.1 answering as a level-400 server would): fields
 * newer than the level are not required, the level can be given or learned
 * from the server's `X-Feature-Level` header, and once known it gates calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, detectFeatureLevel, featureLevelOf, ResponseValidationError, UnsupportedFeatureError, type ClientOptions } from '../../generated/client.js';
import { withoutNewerFields } from '../../generated/client/runtime/checks.js';

let server: Server;
let baseUrl: string;
let requests = 0;

/** A linkifier as a level-400 server sends it: `example_input` and `reverse_template` (level 471) are absent. */
const LEVEL_400_LINKIFIERS = {
  result: 'success',
  msg: '',
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}', alternative_url_templates: [] }],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    req.resume();
    const known = req.url === '/api/v1/realm/linkifiers';
    res.writeHead(known ? 200 : 404, { 'content-type': 'application/json', 'x-feature-level': '400' });
    res.end(JSON.stringify(known ? LEVEL_400_LINKIFIERS : { result: 'error', msg: 'Not found', code: 'NOT_FOUND' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const connect = (options: Partial<ClientOptions> = {}) =>
  createClient({ baseUrl, email: 'member@example.com', apiKey: 'k', validateResponses: 'strict', ...options });

describe('level-aware response validation', () => {
  it('without a level, the older answer fails validation: the newer fields are required', async () => {
    const error = await connect().getLinkifiers().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path).sort()).toEqual([
      '$.linkifiers[0].example_input',
      '$.linkifiers[0].reverse_template',
    ]);
  });

  it("with the server's level, fields newer than it may be absent", async () => {
    expect(await connect({ featureLevel: 400 }).getLinkifiers()).toEqual(LEVEL_400_LINKIFIERS);
  });

  it('with a level at or above the fields, they are required again', async () => {
    await expect(connect({ featureLevel: 471 }).getLinkifiers()).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it("fields present are still checked: a wrong type fails at any level", async () => {
    const wrong = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'x-feature-level': '400' });
      res.end(JSON.stringify({ ...LEVEL_400_LINKIFIERS, linkifiers: [{ ...LEVEL_400_LINKIFIERS.linkifiers[0], id: 'one' }] }));
    });
    await new Promise<void>((resolve) => wrong.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(wrong.address() as AddressInfo).port}`;
      const error = await connect({ baseUrl: url, featureLevel: 400 }).getLinkifiers().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues.map((i) => i.path)).toEqual(['$.linkifiers[0].id']);
    } finally {
      await new Promise((resolve) => wrong.close(resolve));
    }
  });
});

describe("learning the server's level", () => {
  it("featureLevel: 'server' takes the level from the answer and then gates newer operations", async () => {
    const client = connect({ featureLevel: 'server' });
    expect(featureLevelOf(client)).toBeUndefined();
    expect(await client.getLinkifiers()).toEqual(LEVEL_400_LINKIFIERS);
    expect(featureLevelOf(client)).toBe(400);
    const before = requests;
    const error = await client.createVideoCall().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedFeatureError);
    expect(error).toMatchObject({ operation: 'createVideoCall', requiredLevel: 493, serverLevel: 400 });
    expect(requests).toBe(before);
  });

  it('detectFeatureLevel asks the server once, before any client exists', async () => {
    const before = requests;
    expect(await detectFeatureLevel({ baseUrl })).toBe(400);
    expect(requests).toBe(before + 1);
  });
});

describe('withoutNewerFields', () => {
  const issue = (path: string) => ({ path, message: 'is required' });
  const newer = [
    ['linkifiers[].example_input', 471],
    ['retry-after', 500],
    ['message', 120],
  ] as const;

  it('drops issues at or under fields noted above the level, with indexes and quoted keys', () => {
    const issues = [issue('$.linkifiers[3].example_input'), issue('$["retry-after"]'), issue('$.message.flags[0]'), issue('$.linkifiers[3].id')];
    expect(withoutNewerFields(issues, newer, 400).map((i) => i.path)).toEqual(['$.message.flags[0]', '$.linkifiers[3].id']);
    expect(withoutNewerFields(issues, newer, 100).map((i) => i.path)).toEqual(['$.linkifiers[3].id']);
  });

  it('keeps every issue at or above the levels, or without a level', () => {
    const issues = [issue('$.linkifiers[0].example_input'), issue('$["retry-after"]')];
    expect(withoutNewerFields(issues, newer, 500)).toEqual(issues);
    expect(withoutNewerFields(issues, newer, undefined)).toEqual(issues);
    expect(withoutNewerFields(issues, undefined, 1)).toEqual(issues);
  });

  it('does not take a sibling sharing a prefix for a nested field', () => {
    expect(withoutNewerFields([issue('$.messages.id')], [['message', 500]], 1)).toHaveLength(1);
  });
});
