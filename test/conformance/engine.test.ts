/**
 * The run itself, against an in-process server (no network): repeatable by
 * seed, bounded by requests and time, writes only when allowed, the
 * feature-level rule, links followed with the values an answer gave, and
 * curl commands for every kind of body.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceDocument } from '../../generator/conformance/document.js';
import { curlCommand } from '../../generator/conformance/curl.js';
import { operationSpec, wireRequest, type WireRequest } from '../../generator/conformance/wire.js';
import { found, inProcessServer, ownDocument, run, type Override } from './support.js';

let doc: ConformanceDocument;
const auth = 'owner@example.com:key';
const url = 'http://127.0.0.1:9';

beforeAll(async () => {
  doc = await ownDocument();
});

function recording(override?: Override): { fetch: ReturnType<typeof inProcessServer>; sent: WireRequest[] } {
  const server = inProcessServer(doc, override);
  const sent: WireRequest[] = [];
  return { sent, fetch: (request) => (sent.push(request), server(request)) };
}

describe('a run', () => {
  it('conforms against a conforming server, and repeats itself with the same seed', async () => {
    const first = recording();
    const second = recording();
    const a = await run(doc, url, { auth, seed: 42, maxRequests: 300, fetch: first.fetch });
    const b = await run(doc, url, { auth, seed: 42, maxRequests: 300, fetch: second.fetch });
    expect(a.failures).toEqual([]);
    expect(a.summary.requests).toBeGreaterThan(200);
    const bytes = (r: WireRequest) => `${r.method} ${r.url} ${r.body === undefined ? '' : Buffer.from(r.body).toString('base64').replace(/boundary.*/, '')}`;
    // Multipart boundaries are drawn at random by the Fetch API; everything else is the seed's.
    const strip = (r: WireRequest) => bytes(r).replace(/-{2,}[\w-]*formdata[\w-]*/gi, '');
    expect(second.sent.map((r) => `${r.method} ${r.url}`)).toEqual(first.sent.map((r) => `${r.method} ${r.url}`));
    expect(second.sent.filter((r) => !r.headers['Content-Type']?.startsWith('multipart/')).map(strip)).toEqual(first.sent.filter((r) => !r.headers['Content-Type']?.startsWith('multipart/')).map(strip));
    const c = recording();
    await run(doc, url, { auth, seed: 43, maxRequests: 300, fetch: c.fetch });
    expect(c.sent.map((r) => r.url)).not.toEqual(first.sent.map((r) => r.url));
  });

  it('sends positive, negative and unauthenticated requests in every body kind', async () => {
    const { fetch, sent } = recording();
    await run(doc, url, { auth, maxRequests: 400, fetch });
    expect(sent.some((r) => r.headers.Authorization === undefined)).toBe(true);
    expect(sent.some((r) => r.headers['Content-Type'] === 'application/x-www-form-urlencoded')).toBe(true);
    expect(sent.some((r) => r.headers['Content-Type']?.startsWith('multipart/form-data; boundary='))).toBe(true);
    expect(sent.some((r) => r.url.includes('?'))).toBe(true);
  });

  it('stops at --max-requests and at --time-budget', async () => {
    const capped = await run(doc, url, { auth, maxRequests: 30, fetch: inProcessServer(doc) });
    expect(capped.summary.requests).toBeLessThanOrEqual(30);
    expect(capped.summary.stoppedBy).toBe('max-requests');
    const timed = await run(doc, url, { auth, maxRequests: 100_000, timeBudgetMs: 1, fetch: inProcessServer(doc) });
    expect(timed.summary.stoppedBy).toBe('time-budget');
    expect(timed.summary.requests).toBeLessThan(50);
  });

  it('without --allow-writes sends only safe methods, and lists what it left out', async () => {
    const { fetch, sent } = recording();
    const result = await run(doc, url, { auth, allowWrites: false, fetch });
    expect(new Set(sent.map((r) => r.method))).toEqual(new Set(['GET']));
    expect(result.summary.skipped.map((s) => s.operationId)).toContain('update-user');
    expect(result.summary.skipped.find((s) => s.operationId === 'update-user')?.reason).toBe('PATCH changes data: --allow-writes sends it');
  });

  it('sends only to the given URL, its base path added once', async () => {
    const { fetch, sent } = recording();
    await run(doc, 'http://127.0.0.1:9/api/v1', { auth, maxRequests: 60, fetch });
    expect(sent.every((r) => r.url.startsWith('http://127.0.0.1:9/api/v1/') && !r.url.includes('/api/v1/api/v1'))).toBe(true);
  });

  it('without credentials for a scheme, sends only unauthenticated requests and says why', async () => {
    const { fetch, sent } = recording();
    const result = await run(doc, url, { maxRequests: 60, operations: ['get-own-user'], fetch });
    expect(sent.every((r) => r.headers.Authorization === undefined)).toBe(true);
    expect(result.failures).toEqual([]);
    expect(result.summary.notes.join('\n')).toContain('get-own-user: no credentials for basicAuth');
  });
});

describe('feature levels', () => {
  it('one level for the whole server: a second level is a feature-level failure', async () => {
    const fetch = inProcessServer(doc, (request, answer, operationId) =>
      operationId === 'get-linkifiers' && answer.status === 200 ? { ...answer, headers: new Headers({ 'content-type': 'application/json', 'x-feature-level': '1' }) } : undefined,
    );
    const result = await run(doc, url, { auth, operations: ['get-own-user', 'get-linkifiers'], fetch });
    // Whichever answered first sets the level the other is measured against.
    expect(result.failures.length).toBeGreaterThan(0);
    expect(new Set(result.failures.map((failure) => failure.rule))).toEqual(new Set(['feature-level']));
    expect(result.failures.map((failure) => failure.message).join('\n')).toMatch(/level (1|496), where earlier answers said (496|1)/);
  });

  it('a server below a field\'s level may leave the field out', async () => {
    // `ignored_parameters_unsupported` came at level 167; a level-166 server does not send it.
    const level = '166';
    const headers = new Headers({ 'content-type': 'application/json', 'x-feature-level': level });
    const lower: Override = (_request, answer) => ({ ...answer, headers: answer.status === 200 ? headers : answer.headers });
    const result = await run(doc, url, { auth, operations: ['get-own-user', 'get-linkifiers'], fetch: inProcessServer(doc, lower) });
    expect(result.failures).toEqual([]);
    // An operation newer than the level it answers at may not succeed.
    const newer = await run(doc, url, { auth, operations: ['create-video-call'], fetch: inProcessServer(doc, lower) });
    expect(found(newer)).toEqual(['create-video-call feature-level']);
  });
});

describe('links', () => {
  it('feeds the values a get-message answer gives to the operations it links to', async () => {
    const { fetch, sent } = recording();
    const result = await run(doc, url, { auth, operations: ['get-message', 'get-message-history', 'report-message', 'create-message-reminder', 'mark-topic-as-read'], maxRequests: 200, fetch });
    expect(result.failures).toEqual([]);
    expect(result.summary.linksFollowed).toBeGreaterThan(0);
    // The example answer is message 101 in channel 2, topic "deploys".
    const linked = sent.slice(-40);
    expect(linked.some((r) => r.url.endsWith('/api/v1/messages/101/history') || r.url.includes('/api/v1/messages/101/history?'))).toBe(true);
    expect(linked.some((r) => r.url.endsWith('/api/v1/mark_topic_as_read') && new TextDecoder().decode(r.body).includes('stream_id=2') && new TextDecoder().decode(r.body).includes('topic_name=deploys'))).toBe(true);
  });
});

describe('curl reproductions', () => {
  it('send the same bytes for a multipart upload, and never print the credential', async () => {
    const upload = doc.model.operations.find((operation) => operation.id === 'upload-file')!;
    const request = await wireRequest('http://127.0.0.1:1', upload, operationSpec(upload), { file: { filename: "it's.txt", contentType: 'text/plain', data: new TextEncoder().encode('a\\b\r\n\x01é') } });
    const command = curlCommand(request, doc.model.securitySchemes);
    expect(command).toContain('-u "${TEAMCHAT_AUTH_BASICAUTH}"');
    // bash reads the body word back to the exact bytes.
    const word = /--data-binary (\$'(?:[^'\\]|\\.)*')/.exec(command)![1]!;
    const { stdout } = await promisify(execFile)('bash', ['-c', `printf %s ${word} | base64 -w0`], { encoding: 'utf8' });
    expect(stdout).toBe(Buffer.from(request.body!).toString('base64'));
  });
});
