import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STATUS } from '../../server/seed/demo-data.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });
const DANA = 5;

describe.each(drivers)('update-status on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.query('DELETE FROM user_status WHERE user_id <> $1', [DANA]);
    await server.db.query(
      `UPDATE user_status SET status_text = $2, emoji_name = $3, emoji_code = $4, reaction_type = 'unicode_emoji' WHERE user_id = $1`,
      [DANA, STATUS.statusText, STATUS.emojiName, STATUS.emojiCode],
    );
    await server.db.query('UPDATE users SET presence_enabled = true');
    await server.db.query('UPDATE custom_emoji SET deactivated = false');
  });

  const statusOf = async (userId: number) =>
    (
      await server.db.query('SELECT status_text, emoji_name, emoji_code, reaction_type FROM user_status WHERE user_id = $1', [userId])
    ).rows[0];
  const presenceEnabled = async (userId: number) =>
    (await server.db.query<{ presence_enabled: boolean }>('SELECT presence_enabled FROM users WHERE id = $1', [userId])).rows[0]!.presence_enabled;
  const dana = () => server.client('member');

  it.each<[Who, number]>([
    ['owner', 2],
    ['admin', 3],
    ['moderator', 4],
    ['member', 5],
    ['guest', 6],
    ['bot', 7],
  ])('lets %s set its own status', async (who, userId) => {
    await expect(
      server.client(who).updateStatus({ status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' }),
    ).resolves.toEqual({ result: 'success', msg: '' });
    expect(await statusOf(userId)).toEqual({ status_text: 'In a meeting', emoji_name: 'calendar', emoji_code: '1f4c6', reaction_type: 'unicode_emoji' });
  });

  it('changes only the values passed', async () => {
    await dana().updateStatus({ status_text: 'Deploying' });
    expect(await statusOf(DANA)).toEqual({ status_text: 'Deploying', emoji_name: 'eyes', emoji_code: '1f440', reaction_type: 'unicode_emoji' });
    await dana().updateStatus({ emoji_name: 'tada' });
    expect(await statusOf(DANA)).toEqual({ status_text: 'Deploying', emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' });
  });

  it('clears the text with an empty string and the emoji with an empty name', async () => {
    await dana().updateStatus({ status_text: '' });
    expect(await statusOf(DANA)).toMatchObject({ status_text: '', emoji_name: 'eyes' });
    await dana().updateStatus({ emoji_name: '' });
    expect(await statusOf(DANA)).toEqual({ status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
  });

  it('accepts 60 code points and refuses 61, counting code points rather than UTF-16 units', async () => {
    await dana().updateStatus({ status_text: '🚀'.repeat(60) });
    expect((await statusOf(DANA))?.status_text).toBe('🚀'.repeat(60));
    await expect(dana().updateStatus({ status_text: '🚀'.repeat(61) })).rejects.toEqual(refused(/status_text/));
    expect((await statusOf(DANA))?.status_text).toBe('🚀'.repeat(60));
  });

  it('refuses a request without any value', async () => {
    await expect(dana().updateStatus({})).rejects.toEqual(refused(/^Client did not pass any new values$/));
  });

  it.each([
    [{ emoji_code: '1f389' }],
    [{ reaction_type: 'unicode_emoji' as const }],
    [{ status_text: 'Hi', emoji_code: '1f389', reaction_type: 'unicode_emoji' as const }],
  ])('requires emoji_name with emoji_code or reaction_type: %j', async (params) => {
    await expect(dana().updateStatus(params)).rejects.toEqual(refused(/^emoji_name is required/));
    expect(await statusOf(DANA)).toMatchObject({ status_text: STATUS.statusText, emoji_name: STATUS.emojiName });
  });

  it('finds an emoji by name alone in every namespace, custom emoji first', async () => {
    await dana().updateStatus({ emoji_name: 'octopus_ship' });
    expect(await statusOf(DANA)).toMatchObject({ emoji_name: 'octopus_ship', emoji_code: '1', reaction_type: 'realm_emoji' });
    await dana().updateStatus({ emoji_name: 'zulip' });
    expect(await statusOf(DANA)).toMatchObject({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    await dana().updateStatus({ emoji_name: 'eyes' });
    expect(await statusOf(DANA)).toMatchObject({ emoji_name: 'eyes', emoji_code: '1f440', reaction_type: 'unicode_emoji' });
  });

  it('accepts fully named emoji of each namespace', async () => {
    await dana().updateStatus({ status_text: 'Shipping v2.4', emoji_name: 'octopus_ship', emoji_code: '1', reaction_type: 'realm_emoji' });
    expect(await statusOf(DANA)).toEqual({ status_text: 'Shipping v2.4', emoji_name: 'octopus_ship', emoji_code: '1', reaction_type: 'realm_emoji' });
    await dana().updateStatus({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect(await statusOf(DANA)).toMatchObject({ emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
  });

  it('stores the unified code for a code given without its variation selector', async () => {
    await dana().updateStatus({ emoji_name: 'spiral_calendar_pad', emoji_code: '1F5D3' });
    expect(await statusOf(DANA)).toMatchObject({ emoji_name: 'spiral_calendar_pad', emoji_code: '1f5d3-fe0f', reaction_type: 'unicode_emoji' });
  });

  it.each([
    ['an unknown Unicode code', { emoji_name: 'tada', emoji_code: 'fffff', reaction_type: 'unicode_emoji' as const }, /^Emoji does not exist$/],
    ['an unknown name', { emoji_name: 'no_such_emoji_here' }, /^Emoji does not exist$/],
    ['an unknown extra emoji', { emoji_name: 'octocat', emoji_code: 'octocat', reaction_type: 'zulip_extra_emoji' as const }, /^Emoji does not exist$/],
    ['a name not matching the code', { emoji_name: 'tada', emoji_code: '1f440' }, /^Invalid emoji name$/],
    ['a custom emoji under another name', { emoji_name: 'octopus', emoji_code: '1', reaction_type: 'realm_emoji' as const }, /^Invalid emoji name$/],
    ['an extra emoji under another name', { emoji_name: 'zulip_logo', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' as const }, /^Invalid emoji name$/],
    ['an unknown custom emoji id', { emoji_name: 'octopus_ship', emoji_code: '99', reaction_type: 'realm_emoji' as const }, /^Invalid custom emoji$/],
    ['a custom emoji id that is not a number', { emoji_name: 'octopus_ship', emoji_code: 'x1', reaction_type: 'realm_emoji' as const }, /^Invalid custom emoji$/],
    ['a Unicode name asked for as custom emoji', { emoji_name: 'tada', reaction_type: 'realm_emoji' as const }, /^Invalid custom emoji$/],
  ])('refuses %s and changes nothing', async (_case, params, msg) => {
    await expect(dana().updateStatus({ status_text: 'Changed', ...params })).rejects.toEqual(refused(msg));
    expect(await statusOf(DANA)).toEqual({ status_text: STATUS.statusText, emoji_name: 'eyes', emoji_code: '1f440', reaction_type: 'unicode_emoji' });
  });

  it('refuses a deactivated custom emoji', async () => {
    await server.db.query('UPDATE custom_emoji SET deactivated = true WHERE id = 1');
    await expect(dana().updateStatus({ emoji_name: 'octopus_ship', emoji_code: '1', reaction_type: 'realm_emoji' })).rejects.toEqual(
      refused(/^Invalid custom emoji$/),
    );
  });

  it('maps the deprecated away flag onto presence_enabled', async () => {
    await dana().updateStatus({ away: true });
    expect(await presenceEnabled(DANA)).toBe(false);
    expect(await statusOf(DANA)).toMatchObject({ status_text: STATUS.statusText });
    await dana().updateStatus({ away: false });
    expect(await presenceEnabled(DANA)).toBe(true);
  });

  it('creates a status for a user who had none', async () => {
    await server.client('guest').updateStatus({ status_text: 'Visiting' });
    expect(await statusOf(6)).toEqual({ status_text: 'Visiting', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' });
  });
});
