/**
 * Secrets: API keys and passwords never reach the log or a response (but
 * fetch_api_key's own answer), uploads stay inside the upload directory,
 * and checking an API key costs the same whatever the key.
 *
 * Already covered elsewhere, not repeated here: sanitized upload names,
 * safe serving types and Content-Disposition, unshared uploads hidden from
 * other users (test/server/uploads.test.ts, tus.test.ts); the per-username
 * and per-address login limits in sequence (test/server/auth.test.ts).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, isApiError } from '../../generated/client.js';
import { maxFeatureLevel } from '../../generated/server.js';
import { createApp } from '../../server/app.js';
import { apiKeyMatchesHash, hashApiKey } from '../../server/auth/api-keys.js';
import { loadServerSecret } from '../../server/auth/secret.js';
import { loadConfig } from '../../server/config.js';
import { seedDemoIfEmpty, type DemoLogin } from '../../server/seed/demo.js';
import type { DbHandle } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { openPglite } from '../../server/store/pglite.js';

// Pass-through spies: the server works as usual, and the test sees each hash and comparison.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, createHash: vi.fn(actual.createHash), timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const PASSWORD = 'correct-horse-battery-staple';
const WRONG_PASSWORD = 'wrong-horse-battery-staple';
const LIMIT_PER_USER = 3;
const LIMIT_PER_ADDRESS = 6;

describe('secrets stay out of logs and responses', () => {
  let root: string;
  let db: DbHandle;
  let app: FastifyInstance;
  let url: string;
  let logins: DemoLogin[];
  let uploadDir: string;
  let log = '';
  /** The server's clock; null: real time. Tests of the login limits each run at their own far-apart time. */
  let now: number | null = null;
  /** Every response the tests saw: [what was asked, status, headers and body as text]. */
  const responses: { label: string; status: number; text: string }[] = [];

  const recordingFetch = (label: string): typeof fetch => async (input, init) => {
    const response = await fetch(input, init);
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    responses.push({ label, status: response.status, text: `${headers}\n\n${await response.clone().text()}` });
    return response;
  };
  const login = (email: string) => logins.find((l) => l.email === email)!;
  const client = (email: string, apiKey = login(email).apiKey, label = `${email} client`) =>
    createClient({ baseUrl: url, email, apiKey, fetch: recordingFetch(label) });
  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
  const raw = (label: string, path: string, init: RequestInit = {}) => recordingFetch(label)(`${url}${path}`, init);
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'teamchat-secrets-'));
    const config = loadConfig({ DATA_DIR: join(root, 'data'), HOST: '127.0.0.1', PORT: '0', SECRET_KEY: 'c'.repeat(64), DEMO_PASSWORD: PASSWORD,
      LOGIN_FAILURE_LIMIT: String(LIMIT_PER_USER), LOGIN_FAILURE_LIMIT_PER_ADDRESS: String(LIMIT_PER_ADDRESS),
    });
    uploadDir = config.uploadDir;
    mkdirSync(uploadDir, { recursive: true });
    db = await openPglite({ dataDir: null, checkHandleUse: true });
    await migrate(db);
    const secret = loadServerSecret(config);
    logins = (await seedDemoIfEmpty(db, { password: PASSWORD, secret, videoChatProvider: config.videoCall.provider }))!;
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString('utf8');
        done();
      },
    });
    app = await createApp({ db, config, secret, featureLevel: maxFeatureLevel, logger: { level: 'trace', stream },
      now: () => now ?? Math.floor(Date.now() / 1000),
    });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await db?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  describe('a session of requests', () => {
    beforeAll(async () => {
      const member = 'member@example.com';
      const memberKey = login(member).apiKey;
      const anon = createClient({ baseUrl: url, email: '', apiKey: '', fetch: recordingFetch('fetch_api_key') });
      await expect(anon.fetchApiKey({ username: member, password: PASSWORD })).resolves.toMatchObject({ api_key: memberKey });
      for (const [username, password] of [[member, WRONG_PASSWORD], ['nobody@example.com', PASSWORD], ['deploy-bot@example.com', PASSWORD]]) {
        await expect(anon.fetchApiKey({ username: username!, password: password! })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      }
      // Credentials in the query string, which the server also reads: the URL is what request logs show.
      const queried = await raw('fetch_api_key in the query', `/api/v1/fetch_api_key?${new URLSearchParams({ username: member, password: WRONG_PASSWORD })}`, { method: 'POST' });
      expect(queried.status).toBe(400);

      await client(member).getOwnUser();
      await client(member).updateStatus({ status_text: 'Reviewing secrets' });
      await client('owner@example.com').getLinkifiers();
      const { url: fileUrl } = await client(member).uploadFile({ file: { filename: 'notes.txt', data: new TextEncoder().encode('file body') } });
      expect((await raw('serve upload', fileUrl, { headers: { authorization: basic(member, memberKey) } })).status).toBe(200);
      expect((await raw('serve upload, wrong key', fileUrl, { headers: { authorization: basic(member, 'x'.repeat(32)) } })).status).toBe(401);

      for (const [label, email, key] of [
        ['wrong key', member, 'x'.repeat(32)],
        ["another user's key", 'admin@example.com', memberKey],
        ['password as key', member, PASSWORD],
        ['unknown user', 'nobody@example.com', memberKey],
      ] as const) {
        const error = await client(email, key, label).getOwnUser().catch((e: unknown) => e);
        expect(isApiError(error, 'UNAUTHORIZED'), label).toBe(true);
      }
      for (const authorization of [`Bearer ${memberKey}`, `Basic ${memberKey}`, `Basic ${Buffer.from(memberKey).toString('base64')}`]) {
        expect((await raw('malformed auth', '/api/v1/users/me', { headers: { authorization } })).status).toBe(401);
      }
      const unknownRoute = await raw('unknown route', '/api/v1/no-such-thing', { headers: { authorization: basic(member, memberKey) } });
      expect(unknownRoute.status).toBe(404);
      const tus = await raw('tus', '/api/v1/tus', {
        method: 'POST',
        headers: { authorization: basic(member, memberKey), 'tus-resumable': '1.0.0', 'upload-length': '3' },
      });
      expect(tus.status).toBe(201);
    });

    const secrets = () => {
      const list: [string, string][] = [
        ['the demo password', PASSWORD],
        ['the wrong password', WRONG_PASSWORD],
      ];
      for (const { email, apiKey } of logins) {
        list.push([`${email}'s API key`, apiKey]);
        list.push([`${email}'s Basic credentials`, Buffer.from(`${email}:${apiKey}`).toString('base64')]);
        list.push([`${email}'s Basic password form`, Buffer.from(`${email}:${PASSWORD}`).toString('base64')]);
      }
      list.push(['a base64 API key', Buffer.from(login('member@example.com').apiKey).toString('base64')]);
      return list;
    };

    it('logs the requests, at trace level', () => {
      expect(log).toContain('"msg":"incoming request"');
      expect(log).toContain('"msg":"fetch_api_key refused"');
      expect(log).toContain('/api/v1/user_uploads');
      // A query string is logged by its parameter names only.
      expect(log).toContain('"url":"/api/v1/fetch_api_key?username&password"');
      expect(log.split('\n').length).toBeGreaterThan(40);
    });

    it('writes no API key or password, plain or in Basic form, to the log', () => {
      for (const [what, value] of secrets()) expect(log.includes(value), what).toBe(false);
    });

    it("answers no key or password, except fetch_api_key's own key to its own user", () => {
      const member = login('member@example.com');
      expect(responses.length).toBeGreaterThan(15);
      for (const response of responses) {
        for (const [what, value] of secrets()) {
          const allowed = response.label === 'fetch_api_key' && response.status === 200 && value === member.apiKey;
          if (!allowed) expect(response.text.includes(value), `${what} in the answer to ${response.label}`).toBe(false);
        }
      }
    });
  });

  describe('failed fetch_api_key attempts sent all at once', () => {
    const attempt = (username: string, password: string) =>
      fetch(`${url}/api/v1/fetch_api_key`, form({ username, password })).then(async (response) => (await response.json()) as { code?: string });
    const outcomes = (answers: { code?: string }[]) => ({
      refused: answers.filter((a) => a.code === 'BAD_REQUEST').length,
      limited: answers.filter((a) => a.code === 'RATE_LIMIT_HIT').length,
    });

    it('check at most the per-username limit of passwords; the rest are rate limited', async () => {
      now = 2_100_000_000;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => attempt('moderator@example.com', `guess-${k}`)));
      expect(outcomes(answers)).toEqual({ refused: LIMIT_PER_USER, limited: 20 - LIMIT_PER_USER });
      // Even the right password waits now.
      expect(await attempt('moderator@example.com', PASSWORD)).toMatchObject({ code: 'RATE_LIMIT_HIT' });
    });

    it('check at most the per-address limit of passwords across usernames', async () => {
      now = 2_200_000_000;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, k) => attempt(`user${k}@example.com`, 'guess')));
      expect(outcomes(answers)).toEqual({ refused: LIMIT_PER_ADDRESS, limited: 20 - LIMIT_PER_ADDRESS });
    });

    it('leave no failure behind for a right password', async () => {
      now = 2_300_000_000;
      const failures = async () =>
        (await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM failed_logins WHERE attempted_at = $1', [now])).rows[0]!.n;
      await Promise.all(Array.from({ length: LIMIT_PER_USER - 1 }, (_, k) => attempt('member@example.com', `guess-${k}`)));
      for (let i = 0; i < 3; i++) expect(await attempt('member@example.com', PASSWORD)).toHaveProperty('api_key');
      expect(await failures()).toBe(LIMIT_PER_USER - 1);
    });
  });

  it('authenticates every request with one constant-time comparison, whoever it names and whatever the key', async () => {
    now = null;
    const member = login('member@example.com');
    const cases: [string, string, number][] = [
      [member.email, member.apiKey, 200],
      [member.email, 'short', 401],
      [member.email, 'x'.repeat(32), 401],
      [member.email, 'x'.repeat(5000), 401],
      ['nobody@example.com', member.apiKey, 401],
    ];
    for (const [email, key, status] of cases) {
      vi.mocked(timingSafeEqual).mockClear();
      const response = await fetch(`${url}/api/v1/users/me`, { headers: { authorization: basic(email, key) } });
      expect(response.status, `${email} with a ${key.length}-character key`).toBe(status);
      const compared = vi.mocked(timingSafeEqual).mock.calls;
      expect(compared.map((buffers) => buffers.map((buffer) => (buffer as Buffer).length))).toEqual([[32, 32]]);
    }
  });

  it('keeps every uploaded file inside the upload directory, whatever its name', async () => {
    const key = login('member@example.com').apiKey;
    for (const filename of ['../../../escape-a.txt', '/tmp/escape-b.txt', '..\\..\\escape-c.txt', '%2e%2e%2fescape-d.txt', 'a/../../escape-e.txt']) {
      const body = new FormData();
      body.append('file', new Blob(['escaped?']), filename);
      const response = await fetch(`${url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: basic('member@example.com', key) }, body });
      expect(response.status, filename).toBe(200);
    }
    const files = (readdirSync(root, { recursive: true, withFileTypes: true }) as { isFile(): boolean; parentPath: string; name: string }[])
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    const outside = files.filter((file) => relative(uploadDir, file).startsWith('..'));
    expect(outside).toEqual([]);
    // Besides unfinished resumable uploads (.tus), one file per recorded upload.
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM uploads');
    expect(files.filter((file) => !relative(uploadDir, file).startsWith('.tus'))).toHaveLength(rows[0]!.n);
  });
});

describe('API key comparison', () => {
  const rightKey = 'A'.repeat(32);
  const stored = hashApiKey(rightKey);

  it.each([
    ['the right key', rightKey, true],
    ['a wrong key of the right length', 'B'.repeat(32), false],
    ['an empty key', '', false],
    ['a short key', 'AAAA', false],
    ['the right key with more after it', `${rightKey}A`, false],
    ['a very long key', 'A'.repeat(10_000), false],
  ])('checks %s with one SHA-256 and one constant-time comparison of 32 bytes', (_case, key, matches) => {
    vi.mocked(createHash).mockClear();
    vi.mocked(timingSafeEqual).mockClear();
    expect(apiKeyMatchesHash(key, stored)).toBe(matches);
    expect(vi.mocked(createHash).mock.calls).toEqual([['sha256']]);
    const compared = vi.mocked(timingSafeEqual).mock.calls;
    expect(compared).toHaveLength(1);
    expect(compared[0]!.map((buffer) => (buffer as Buffer).length)).toEqual([32, 32]);
  });
});
