import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAYGROUND } from '../../server/seed/demo-data.js';
import { listCodePlaygrounds } from '../../server/store/realm.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });

describe.each(drivers)('add-code-playground on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.query('DELETE FROM code_playgrounds WHERE id <> $1', [PLAYGROUND.id]);
  });

  const rust = { name: 'Rust playground', pygments_language: 'rust', url_template: 'https://play.rust-lang.org/?code={code}' };

  it.each<[Who, boolean]>([
    ['owner', true],
    ['admin', true],
    ['moderator', false],
    ['member', false],
    ['guest', false],
    ['bot', false],
  ])('as %s: allowed %s', async (who, allowed) => {
    const request = server.client(who).addCodePlayground(rust);
    if (allowed) {
      const { id } = await request;
      expect(await listCodePlaygrounds(server.db)).toContainEqual({ id, ...rust });
      expect(id).toBeGreaterThan(PLAYGROUND.id);
    } else {
      await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect(await listCodePlaygrounds(server.db)).toHaveLength(1);
    }
  });

  it('gives each playground its own id, several per language', async () => {
    const admin = server.client('admin');
    const first = await admin.addCodePlayground(rust);
    const second = await admin.addCodePlayground({ ...rust, name: 'Rust explorer', url_template: 'https://godbolt.example.com/{?code}' });
    expect(second.id).not.toBe(first.id);
    expect((await listCodePlaygrounds(server.db)).filter((row) => row.pygments_language === 'rust')).toHaveLength(2);
  });

  it.each([
    ['no variable', 'https://play.example.com/run'],
    ['two variables', 'https://play.example.com/{lang}?code={code}'],
    ['the variable twice', 'https://play.example.com/{code}?again={code}'],
    ['another name', 'https://play.example.com/?source={source}'],
    ['two names in one expression', 'https://play.example.com/{?code,lang}'],
  ])('refuses a template with %s', async (_case, template) => {
    await expect(server.client('admin').addCodePlayground({ ...rust, url_template: template })).rejects.toEqual(
      refused(/^url_template must contain exactly one variable, named code$/),
    );
    expect(await listCodePlaygrounds(server.db)).toHaveLength(1);
  });

  it.each([
    ['an unclosed expression', 'https://play.example.com/{code', /not a valid RFC 6570/],
    ['a variable name with a space', 'https://play.example.com/{co de}', /not a valid RFC 6570/],
    ['a prefix modifier', 'https://play.example.com/{code:10}', /no modifier/],
    ['an explode modifier', 'https://play.example.com/{code*}', /no modifier/],
    ['a relative URL', '/run?code={code}', /absolute URL/],
    ['a javascript: URL', 'javascript:alert({code})', /http or https/],
  ])('refuses a template with %s', async (_case, template, msg) => {
    await expect(server.client('admin').addCodePlayground({ ...rust, url_template: template })).rejects.toEqual(refused(msg));
  });

  it('accepts the variable under any operator', async () => {
    for (const template of ['https://x.example.com/{?code}', 'https://x.example.com/run{/code}', 'https://x.example.com/#{+code}']) {
      await expect(server.client('admin').addCodePlayground({ ...rust, name: template, url_template: template })).resolves.toMatchObject({
        result: 'success',
      });
    }
  });

  it('refuses empty names and languages, and trims them', async () => {
    const admin = server.client('admin');
    await expect(admin.addCodePlayground({ ...rust, name: ' ' })).rejects.toEqual(refused(/^name must not be empty$/));
    await expect(admin.addCodePlayground({ ...rust, pygments_language: '' })).rejects.toEqual(refused(/^pygments_language must not be empty$/));
    const { id } = await admin.addCodePlayground({ ...rust, name: '  Rust  ', pygments_language: ' rust ' });
    expect((await listCodePlaygrounds(server.db)).find((row) => row.id === id)).toMatchObject({ name: 'Rust', pygments_language: 'rust' });
  });

  it('refuses a second playground with the same name for the same language', async () => {
    await expect(
      server.client('admin').addCodePlayground({ name: PLAYGROUND.name, pygments_language: PLAYGROUND.pygmentsLanguage, url_template: rust.url_template }),
    ).rejects.toEqual(refused(/already exists for python/));
  });

  it('requires every parameter', async () => {
    const { url_template: _template, ...withoutTemplate } = rust;
    await expect(server.client('admin').addCodePlayground(withoutTemplate as never)).rejects.toEqual(refused(/url_template/));
  });
});
