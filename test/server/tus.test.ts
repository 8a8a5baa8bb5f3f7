import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL, USER } from '../../server/seed/demo-data.js';
import { insertMessage } from '../../server/store/messages.js';
import type { UploadRow } from '../../server/store/rows.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const TUS = { 'tus-resumable': '1.0.0' };
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe.each(drivers)('tus endpoint on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.query('UPDATE realm SET max_file_upload_size_mib = 25');
  });

  const auth = (who: Who) => ({ authorization: `Basic ${b64(`${server.logins[who].email}:${server.logins[who].apiKey}`)}` });
  const tus = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);

  /** POST: creates an upload and returns its location. */
  const create = async (who: Who, length: number, metadata: Record<string, string> = {}) => {
    const uploadMetadata = Object.entries(metadata).map(([key, value]) => `${key} ${b64(value)}`).join(',');
    const response = await tus('/api/v1/tus', {
      method: 'POST',
      headers: { ...TUS, ...auth(who), 'upload-length': String(length), ...(uploadMetadata && { 'upload-metadata': uploadMetadata }) },
    });
    expect(response.status).toBe(201);
    const location = response.headers.get('location')!;
    expect(location).toMatch(/^\/api\/v1\/tus\/[0-9a-f]+$/);
    return location;
  };
  const patch = (who: Who, location: string, offset: number, bytes: Uint8Array<ArrayBuffer>) =>
    tus(location, {
      method: 'PATCH',
      headers: { ...TUS, ...auth(who), 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: bytes,
    });
  const head = (who: Who, location: string) => tus(location, { method: 'HEAD', headers: { ...TUS, ...auth(who) } });
  const serve = (url: string, who: Who) => fetch(`${server.url}${url}`, { headers: auth(who) });

  it('uploads in two chunks, reports the offset in between, and serves the finished file', async () => {
    const content = new TextEncoder().encode('first half|second half');
    const location = await create('member', content.byteLength, { filename: 'report [final].txt', filetype: 'text/plain' });

    const first = await patch('member', location, 0, content.subarray(0, 10));
    expect(first.status).toBe(204);
    expect(first.headers.get('upload-offset')).toBe('10');

    const progress = await head('member', location);
    expect(progress.status).toBe(200);
    expect(progress.headers.get('upload-offset')).toBe('10');
    expect(progress.headers.get('upload-length')).toBe(String(content.byteLength));

    const last = await patch('member', location, 10, content.subarray(10));
    expect(last.status).toBe(200);
    expect(last.headers.get('upload-offset')).toBe(String(content.byteLength));
    const body = (await last.json()) as { url: string; uri: string; filename: string };
    expect(body).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/1\/[0-9a-f]{2}\/[\w-]{24}\/report-final\.txt$/), uri: body.url, filename: 'report-final.txt' });

    const { rows } = await server.db.query<UploadRow>('SELECT * FROM uploads WHERE path_id = $1', [body.url.slice('/user_uploads/'.length)]);
    expect(rows[0]).toMatchObject({ owner_id: USER.dana, filename: 'report-final.txt', content_type: 'text/plain', size: content.byteLength });

    const served = await serve(body.url, 'member');
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('first half|second half');
    expect(served.headers.get('content-disposition')).toMatch(/^inline;/);
    // Unshared until a message links it, exactly like a plain upload.
    expect((await serve(body.url, 'admin')).status).toBe(404);
    await insertMessage(server.db, { senderId: USER.dana, to: { channelId: CHANNEL.general, topic: 'files' }, content: body.url, renderedContent: '<p>file</p>' });
    expect((await serve(body.url, 'admin')).status).toBe(200);

    // The partial upload is gone once finished (removed just after the answer).
    await expect.poll(async () => (await head('member', location)).status).toBe(404);
  });

  it('answers CORS preflights without credentials', async () => {
    const response = await tus('/api/v1/tus', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('tus-version')).toContain('1.0.0');
  });

  it('names a file without metadata uploaded-file, and takes tus-js-client style name/type keys', async () => {
    const bare = await create('owner', 3);
    const done = await patch('owner', bare, 0, new Uint8Array([1, 2, 3]));
    expect(await done.json()).toMatchObject({ filename: 'uploaded-file' });
    const named = await create('owner', 2, { name: '../../etc/passwd', type: 'text/html' });
    const finished = (await (await patch('owner', named, 0, new Uint8Array([60, 62]))).json()) as { url: string; filename: string };
    expect(finished.filename).toBe('passwd');
    expect((await serve(finished.url, 'owner')).headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it('finishes a file sent along with the creation request', async () => {
    const response = await tus('/api/v1/tus', {
      method: 'POST',
      headers: { ...TUS, ...auth('guest'), 'upload-length': '5', 'upload-metadata': `filename ${b64('hello.txt')}`, 'content-type': 'application/offset+octet-stream' },
      body: 'hello',
    });
    expect(response.status).toBe(200);
    const { url } = (await response.json()) as { url: string };
    expect(await (await serve(url, 'guest')).text()).toBe('hello');
  });

  it('refuses requests without valid credentials', async () => {
    const anonymous = await tus('/api/v1/tus', { method: 'POST', headers: { ...TUS, 'upload-length': '1' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await tus('/api/v1/tus', {
      method: 'POST',
      headers: { ...TUS, 'upload-length': '1', authorization: `Basic ${b64(`member@example.com:${'x'.repeat(32)}`)}` },
    });
    expect(wrong.status).toBe(401);
    const location = await create('member', 4);
    expect((await tus(location, { method: 'HEAD', headers: TUS })).status).toBe(401);
    expect((await tus(location, { method: 'PATCH', headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'abcd' })).status).toBe(401);
  });

  it("keeps one user's upload from another", async () => {
    const location = await create('member', 4);
    expect((await head('admin', location)).status).toBe(404);
    expect((await patch('admin', location, 0, new Uint8Array(4))).status).toBe(404);
    expect((await tus(location, { method: 'DELETE', headers: { ...TUS, ...auth('admin') } })).status).toBe(404);
    const own = await head('member', location);
    expect(own.status).toBe(200);
    expect(own.headers.get('upload-offset')).toBe('0');
  });

  it('refuses an upload longer than the organization limit with 413', async () => {
    await server.db.query('UPDATE realm SET max_file_upload_size_mib = 1');
    const response = await tus('/api/v1/tus', { method: 'POST', headers: { ...TUS, ...auth('member'), 'upload-length': String(1024 * 1024 + 1) } });
    expect(response.status).toBe(413);
    await create('member', 1024 * 1024);
  });

  it('refuses a chunk at the wrong offset and keeps the upload resumable', async () => {
    const location = await create('member', 6);
    expect((await patch('member', location, 3, new Uint8Array(3))).status).toBe(409);
    expect((await head('member', location)).headers.get('upload-offset')).toBe('0');
  });

  it('answers an unknown upload with 404', async () => {
    expect((await head('member', '/api/v1/tus/0123456789abcdef')).status).toBe(404);
  });

  it('requires the Tus-Resumable header', async () => {
    const response = await tus('/api/v1/tus', { method: 'POST', headers: { ...auth('member'), 'upload-length': '1' } });
    expect(response.status).toBe(412);
  });
});
