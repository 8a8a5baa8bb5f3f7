import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL, USER } from '../../server/seed/demo-data.js';
import { insertMessage } from '../../server/store/messages.js';
import { sanitizeFilename, servingHeaders, uploadContentType } from '../../server/uploads/names.js';
import type { UploadRow } from '../../server/store/rows.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const MIB = 1024 * 1024;

describe.each(drivers)('upload-file and /user_uploads on %s', (driver) => {
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

  const auth = (who: Who) => `Basic ${Buffer.from(`${server.logins[who].email}:${server.logins[who].apiKey}`).toString('base64')}`;
  const fetchFile = (url: string, who?: Who, init: RequestInit = {}) =>
    fetch(`${server.url}${url}`, { ...init, headers: who ? { authorization: auth(who) } : {} });
  const upload = (who: Who, filename: string, data: Uint8Array | string, contentType?: string) =>
    server.client(who).uploadFile({ file: { filename, data: typeof data === 'string' ? new TextEncoder().encode(data) : data, contentType } });
  const row = async (url: string) =>
    (await server.db.query<UploadRow>('SELECT * FROM uploads WHERE path_id = $1', [url.slice('/user_uploads/'.length)])).rows[0];
  const share = (url: string, to: { channelId: number; topic: string } | { directTo: number[] }, senderId: number = USER.ada) =>
    insertMessage(server.db, { senderId, to, content: `See [the file](${url})`, renderedContent: `<p>See the file</p>` });

  it('stores the file, records it, and serves it back to the uploader', async () => {
    const result = await upload('member', 'release-notes.pdf', '%PDF-1.4 notes', 'application/pdf');
    expect(result).toEqual({ result: 'success', msg: '', url: expect.stringMatching(/^\/user_uploads\/1\/[0-9a-f]{2}\/[\w-]{24}\/release-notes\.pdf$/), uri: result.url, filename: 'release-notes.pdf' });
    expect(await row(result.url)).toMatchObject({ owner_id: USER.dana, filename: 'release-notes.pdf', content_type: 'application/pdf', size: 14 });
    const response = await fetchFile(result.url, 'member');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('%PDF-1.4 notes');
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="release-notes.pdf"; filename*=UTF-8''release-notes.pdf`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-length')).toBe('14');
  });

  it('gives every upload its own URL, even with the same name', async () => {
    const first = await upload('member', 'a.txt', 'one');
    const second = await upload('member', 'a.txt', 'two');
    expect(first.url).not.toBe(second.url);
    expect(await (await fetchFile(first.url, 'member')).text()).toBe('one');
    expect(await (await fetchFile(second.url, 'member')).text()).toBe('two');
  });

  it('keeps binary content intact', async () => {
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 31 + 7) % 256);
    const { url } = await upload('guest', 'blob.bin', bytes);
    const served = new Uint8Array(await (await fetchFile(url, 'guest')).arrayBuffer());
    expect(Buffer.compare(served, bytes)).toBe(0);
    expect(await row(url)).toMatchObject({ size: 70_000, content_type: 'application/octet-stream', owner_id: USER.eli });
  });

  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\win.ini', 'win.ini'],
    ['..', 'uploaded-file'],
    ['...', 'uploaded-file'],
    ['.htaccess', 'htaccess'],
    ['a..b..txt', 'a.b.txt'],
    ['notes [draft] (v2).md', 'notes-draft-v2.md'],
    ['evil\u0000name\u0007\u001b.txt', 'evilname.txt'],
    ['\u202egnp.exe', 'gnp.exe'],
    ['résumé 2024.pdf', 'résumé-2024.pdf'],
    ['%2e%2e%2fsecret', '2e2e2fsecret'],
  ])('sanitizes the name %j to %j', async (name, expected) => {
    const { url, filename } = await upload('member', name, 'x');
    expect(filename).toBe(expected);
    expect(url.endsWith(`/${encodeURIComponent(expected)}`)).toBe(true);
    expect(url).not.toContain('..');
    expect(url.split('/')).toHaveLength(6);
    expect((await row(url))!.filename).toBe(expected);
    expect(await (await fetchFile(url, 'member')).text()).toBe('x');
  });

  it('accepts a file of exactly the organization limit and refuses a larger one with 413', async () => {
    await server.db.query('UPDATE realm SET max_file_upload_size_mib = 1');
    await expect(upload('member', 'limit.bin', new Uint8Array(MIB))).resolves.toMatchObject({ result: 'success' });
    const count = async () => (await server.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM uploads')).rows[0]!.n;
    const before = await count();
    await expect(upload('member', 'over.bin', new Uint8Array(MIB + 1))).rejects.toEqual(expect.objectContaining({ code: 'REQUEST_TOO_LARGE', status: 413 }));
    expect(await count()).toBe(before);
  });

  it('refuses a body without a file, or with two', async () => {
    const post = (form: FormData) => fetch(`${server.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth('member') }, body: form });
    const none = new FormData();
    none.append('note', 'no file here');
    const noneResponse = await post(none);
    expect(noneResponse.status).toBe(400);
    expect(await noneResponse.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    const two = new FormData();
    two.append('a', new Blob(['1']), 'a.txt');
    two.append('b', new Blob(['2']), 'b.txt');
    const twoResponse = await post(two);
    expect(twoResponse.status).toBe(400);
    expect(await twoResponse.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('refuses uploads without valid credentials', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const response = await fetch(`${server.url}/api/v1/user_uploads`, { method: 'POST', body: form });
    expect(response.status).toBe(401);
  });

  describe('serving', () => {
    it('needs credentials, and valid ones', async () => {
      const { url } = await upload('member', 'private.txt', 'secret');
      const anonymous = await fetchFile(url);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(await anonymous.json()).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
      const wrong = await fetch(`${server.url}${url}`, {
        headers: { authorization: `Basic ${Buffer.from(`member@example.com:${'x'.repeat(32)}`).toString('base64')}` },
      });
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).not.toContain('secret');
    });

    it.each<Who>(['owner', 'admin', 'moderator', 'guest', 'bot'])('hides an unshared upload from %s like a missing file', async (who) => {
      const { url } = await upload('member', 'draft.txt', 'mine only');
      const response = await fetchFile(url, who);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ result: 'error', msg: 'File not found', code: 'NOT_FOUND' });
    });

    it('shares an upload through a channel message with everyone who can read it', async () => {
      const { url } = await upload('member', 'shared.txt', 'for everyone');
      expect((await fetchFile(url, 'admin')).status).toBe(404);
      await share(url, { channelId: CHANNEL.general, topic: 'files' }, USER.dana);
      for (const who of ['owner', 'admin', 'moderator', 'guest', 'bot'] as const) {
        const response = await fetchFile(url, who);
        expect(response.status, who).toBe(200);
        expect(await response.text()).toBe('for everyone');
      }
    });

    it('shares through a private channel only with its readers', async () => {
      const { url } = await upload('owner', 'mockup.txt', 'design only');
      await share(url, { channelId: CHANNEL.design, topic: 'mocks' });
      expect((await fetchFile(url, 'moderator')).status).toBe(200);
      expect((await fetchFile(url, 'member')).status).toBe(404);
      expect((await fetchFile(url, 'admin')).status).toBe(404);
    });

    it('shares through a direct message only with its participants', async () => {
      const { url } = await upload('owner', 'dm.txt', 'between us');
      await share(url, { directTo: [USER.dana] });
      expect((await fetchFile(url, 'member')).status).toBe(200);
      expect((await fetchFile(url, 'admin')).status).toBe(404);
    });

    it('matches the link as a substring of the message: a longer URL counts, another name does not', async () => {
      const { url } = await upload('owner', 'a.txt', 'short');
      await share(`${url}x`, { channelId: CHANNEL.general, topic: 'files' });
      expect((await fetchFile(url, 'member')).status).toBe(200);
      const other = await upload('owner', 'b.txt', 'other');
      await share(other.url.replace(/b\.txt$/, 'c.txt'), { channelId: CHANNEL.general, topic: 'files' });
      expect((await fetchFile(other.url, 'member')).status).toBe(404);
    });

    it('finds the file whatever characters the client percent-encodes', async () => {
      const { url } = await upload('member', 'résumé.pdf', 'cv');
      const decoded = decodeURIComponent(url);
      expect(decoded).not.toBe(url);
      expect((await fetchFile(encodeURI(decoded), 'member')).status).toBe(200);
      expect((await fetchFile(url.replace('.pdf', '%2Epdf'), 'member')).status).toBe(200);
    });

    it('answers unknown and traversing paths with 404', async () => {
      for (const path of ['/user_uploads/1/00/none/x.txt', '/user_uploads/1/%2e%2e/%2e%2e/etc/passwd', '/user_uploads/%2e%2e%2f%2e%2e%2fpackage.json']) {
        const response = await fetchFile(path, 'owner');
        expect(response.status, path).toBe(404);
      }
      // Fastify refuses a malformed percent-escape before routing.
      expect((await fetchFile('/user_uploads/%zz', 'owner')).status).toBe(400);
    });

    it('answers HEAD with the headers and no body', async () => {
      const { url } = await upload('member', 'photo.png', 'png bytes', 'image/png');
      const response = await fetchFile(url, 'member', { method: 'HEAD' });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      expect(await response.text()).toBe('');
    });

    it.each([
      ['page.html', 'text/html', 'attachment', 'application/octet-stream'],
      ['page.html', undefined, 'attachment', 'application/octet-stream'],
      ['logo.svg', 'image/svg+xml', 'attachment', 'application/octet-stream'],
      ['app.js', 'text/javascript', 'attachment', 'application/octet-stream'],
      ['photo.png', 'image/png', 'inline', 'image/png'],
      ['photo.jpg', undefined, 'inline', 'image/jpeg'],
      ['doc.pdf', 'application/pdf', 'inline', 'application/pdf'],
      ['notes.txt', 'text/plain; charset=latin1', 'inline', 'text/plain; charset=utf-8'],
      ['fake.png', 'text/html', 'attachment', 'application/octet-stream'],
    ])('serves %s declared %s as %s %s', async (name, declared, disposition, type) => {
      const { url } = await upload('member', name, '<script>alert(1)</script>', declared);
      const response = await fetchFile(url, 'member');
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-disposition')?.split(';')[0]).toBe(disposition);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });
  });
});

describe('upload names and types', () => {
  it('names an empty or fully stripped file uploaded-file', () => {
    expect(sanitizeFilename('')).toBe('uploaded-file');
    expect(sanitizeFilename('[]()<>')).toBe('uploaded-file');
    expect(sanitizeFilename('/')).toBe('uploaded-file');
  });

  it('shortens long names and keeps the extension', () => {
    const name = sanitizeFilename(`${'a'.repeat(300)}.tar`);
    expect([...name]).toHaveLength(150);
    expect(name.endsWith('a.tar')).toBe(true);
  });

  it('never leaves brackets, separators or control characters', () => {
    for (const raw of ['a]b[c', 'x/y\\z', 'tab\there', 'line\r\nbreak', 'nul\u0000', 'bell\u0007', 'zero\u200bwidth']) {
      expect(sanitizeFilename(raw)).toMatch(/^[\p{L}\p{N}\p{M}_.-]+$/u);
    }
  });

  it('guesses a type only when none, or a generic one, was declared', () => {
    expect(uploadContentType(undefined, 'a.PNG')).toBe('image/png');
    expect(uploadContentType('application/octet-stream', 'a.pdf')).toBe('application/pdf');
    expect(uploadContentType('Image/GIF; x=y', 'a.bin')).toBe('image/gif');
    expect(uploadContentType('not a type', 'a.unknown')).toBe('application/octet-stream');
  });

  it('quotes non-ASCII names safely in Content-Disposition', () => {
    expect(servingHeaders('image/png', 'café.png')['content-disposition']).toBe(`inline; filename="caf_.png"; filename*=UTF-8''caf%C3%A9.png`);
  });
});
