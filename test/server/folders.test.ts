import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FOLDERS } from '../../server/seed/demo-data.js';
import { getChannelFolder } from '../../server/store/channels.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });

describe.each(drivers)('update-channel-folder on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    for (const folder of FOLDERS) {
      await server.db.query('UPDATE channel_folders SET name = $2, description = $3, rendered_description = $4, is_archived = $5 WHERE id = $1', [
        folder.id,
        folder.name,
        folder.description,
        `<p>${folder.description}</p>`,
        folder.isArchived,
      ]);
    }
    await server.db.query('UPDATE realm SET max_channel_folder_name_length = 60, max_channel_folder_description_length = 1024');
  });

  const folder = (id: number) => getChannelFolder(server.db, id);

  describe.each<[Who, boolean]>([
    ['owner', true],
    ['admin', true],
    ['moderator', false],
    ['member', false],
    ['guest', false],
    ['bot', false],
  ])('as %s', (who, allowed) => {
    it(allowed ? 'renames, describes and archives' : 'is refused and changes nothing', async () => {
      const request = server.client(who).updateChannelFolder({ channel_folder_id: 1, name: 'Products', description: 'All **we** make', is_archived: true });
      if (allowed) {
        await expect(request).resolves.toEqual({ result: 'success', msg: '' });
        expect(await folder(1)).toMatchObject({
          name: 'Products',
          description: 'All **we** make',
          rendered_description: '<p>All <strong>we</strong> make</p>',
          is_archived: true,
        });
      } else {
        await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
        expect(await folder(1)).toMatchObject({ name: 'Product', is_archived: false });
      }
    });
  });

  it('answers an unknown folder with the documented error', async () => {
    await expect(server.client('admin').updateChannelFolder({ channel_folder_id: 99, name: 'X' })).rejects.toEqual(
      refused(/^Invalid channel folder ID$/),
    );
  });

  it('refuses a non-admin before revealing whether the folder exists', async () => {
    await expect(server.client('member').updateChannelFolder({ channel_folder_id: 99 })).rejects.toEqual(refused(/administrator/));
  });

  it('archives with true and unarchives with false', async () => {
    const admin = server.client('admin');
    await admin.updateChannelFolder({ channel_folder_id: 2, is_archived: false });
    expect((await folder(2))!.is_archived).toBe(false);
    await admin.updateChannelFolder({ channel_folder_id: 2, is_archived: false });
    expect((await folder(2))!.is_archived).toBe(false);
    await admin.updateChannelFolder({ channel_folder_id: 2, is_archived: true });
    expect((await folder(2))!.is_archived).toBe(true);
  });

  it('changes only what is passed', async () => {
    await server.client('owner').updateChannelFolder({ channel_folder_id: 1, description: 'New words' });
    expect(await folder(1)).toMatchObject({ name: 'Product', description: 'New words', rendered_description: '<p>New words</p>', is_archived: false });
    await server.client('owner').updateChannelFolder({ channel_folder_id: 1 });
    expect(await folder(1)).toMatchObject({ name: 'Product', description: 'New words' });
  });

  it('trims the name and refuses an empty or blank one', async () => {
    const admin = server.client('admin');
    await expect(admin.updateChannelFolder({ channel_folder_id: 1, name: '' })).rejects.toEqual(refused(/name/));
    await expect(admin.updateChannelFolder({ channel_folder_id: 1, name: '   ' })).rejects.toEqual(refused(/must not be empty/));
    await expect(admin.updateChannelFolder({ channel_folder_id: 1, name: 'bad\u0007name' })).rejects.toEqual(refused(/invalid characters/));
    await admin.updateChannelFolder({ channel_folder_id: 1, name: '  Roadmap  ' });
    expect((await folder(1))!.name).toBe('Roadmap');
  });

  it('enforces the organization name length limit in code points', async () => {
    await server.db.query('UPDATE realm SET max_channel_folder_name_length = 5');
    const admin = server.client('admin');
    await admin.updateChannelFolder({ channel_folder_id: 1, name: '🚀🚀🚀🚀🚀' });
    expect((await folder(1))!.name).toBe('🚀🚀🚀🚀🚀');
    await expect(admin.updateChannelFolder({ channel_folder_id: 1, name: 'sixsix' })).rejects.toEqual(refused(/too long \(limit: 5/));
  });

  it('enforces the organization description length limit', async () => {
    await server.db.query('UPDATE realm SET max_channel_folder_description_length = 8');
    const admin = server.client('admin');
    await admin.updateChannelFolder({ channel_folder_id: 1, description: '12345678' });
    await expect(admin.updateChannelFolder({ channel_folder_id: 1, description: '123456789' })).rejects.toEqual(refused(/description is too long/));
    expect((await folder(1))!.description).toBe('12345678');
  });

  it('clears the description and its rendering', async () => {
    await server.client('admin').updateChannelFolder({ channel_folder_id: 1, description: '' });
    expect(await folder(1)).toMatchObject({ description: '', rendered_description: '' });
  });

  it('escapes HTML in the description and applies linkifiers', async () => {
    await server.client('admin').updateChannelFolder({ channel_folder_id: 1, description: '<script>x</script> see #42' });
    const rendered = (await folder(1))!.rendered_description;
    expect(rendered).not.toContain('<script>');
    expect(rendered).toContain('href="https://github.com/lakeside/app/issues/42"');
  });

  it('keeps names unique, case-insensitively, archived folders included', async () => {
    const admin = server.client('admin');
    await expect(admin.updateChannelFolder({ channel_folder_id: 1, name: 'archive' })).rejects.toEqual(refused(/already exists/));
    await expect(admin.updateChannelFolder({ channel_folder_id: 2, name: 'PRODUCT' })).rejects.toEqual(refused(/already exists/));
    // A folder may take another casing of its own name.
    await admin.updateChannelFolder({ channel_folder_id: 1, name: 'PRODUCT' });
    expect((await folder(1))!.name).toBe('PRODUCT');
  });

  it('refuses the whole request when one value is invalid', async () => {
    await expect(
      server.client('admin').updateChannelFolder({ channel_folder_id: 1, description: 'changed', is_archived: true, name: 'Archive' }),
    ).rejects.toEqual(refused(/already exists/));
    expect(await folder(1)).toMatchObject({ name: 'Product', description: FOLDERS[0]!.description, is_archived: false });
  });
});
