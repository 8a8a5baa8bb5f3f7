import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SendInvitesParams } from '../../generated/types.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });
const failed = (errors: [string, string, boolean][], sent: boolean) =>
  expect.objectContaining({ code: 'INVITATION_FAILED', status: 400, errors, daily_limit_reached: false, license_limit_reached: false, sent_invitations: sent });
const success = { result: 'success', msg: '' };
const NOW = 1_900_000_000;
const DEFAULT_MINUTES = 60;
const ROLE: Record<Who, number> = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600, bot: 400 };
const INVITERS: Who[] = ['owner', 'admin', 'moderator', 'member'];
const ALL: Who[] = [...INVITERS, 'guest', 'bot'];
const GROUP = { members: 3, administrators: 6, backend: 9 };
const CHANNEL = { general: 1, engineering: 2, design: 3, announcements: 4, archive: 6 };

interface StoredInvitation {
  id: number;
  inviter_id: number;
  email: string;
  invite_as: number;
  created_at: number;
  expires_at: number | null;
  include_realm_default_subscriptions: boolean;
  notify_referrer_on_join: boolean;
  welcome_message_custom_text: string | null;
  channels: number[];
  groups: number[];
}

describe.each(drivers)('send-invites on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver, { env: { INVITATION_LINK_VALIDITY_MINUTES: String(DEFAULT_MINUTES) } });
    server.setNow(NOW);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.query('DELETE FROM invitation_channels');
    await server.db.query('DELETE FROM invitation_groups');
    await server.db.query('DELETE FROM invitations');
    await server.db.query('UPDATE realm SET can_add_subscribers_group_id = $1, can_invite_users_group_id = $1', [GROUP.members]);
    await server.db.query('UPDATE users SET is_active = true');
  });

  const invitations = async (): Promise<StoredInvitation[]> =>
    (
      await server.db.query<StoredInvitation>(
        `SELECT i.*,
           ARRAY(SELECT channel_id FROM invitation_channels c WHERE c.invitation_id = i.id ORDER BY channel_id) AS channels,
           ARRAY(SELECT group_id FROM invitation_groups g WHERE g.invitation_id = i.id ORDER BY group_id) AS groups
         FROM invitations i ORDER BY i.id`,
      )
    ).rows;
  const emails = async () => (await invitations()).map((row) => row.email);
  const invite = (who: Who, params: Partial<SendInvitesParams> = {}) =>
    server.client(who).sendInvites({ invitee_emails: 'sam@example.com', stream_ids: [], ...params });

  describe('role matrix', () => {
    it.each(ALL)('who may invite: %s', async (who) => {
      const request = invite(who, { invite_as: 600 });
      if (INVITERS.includes(who)) await expect(request).resolves.toEqual(success);
      else await expect(request).rejects.toEqual(refused(/^Insufficient permission$/));
      expect(await emails()).toEqual(INVITERS.includes(who) ? ['sam@example.com'] : []);
    });

    it.each(INVITERS)('role ceiling for %s: each role from owner to guest', async (who) => {
      for (const role of [100, 200, 300, 400, 600] as const) {
        const request = invite(who, { invitee_emails: `role${role}@example.com`, invite_as: role });
        if (role >= ROLE[who]) await expect(request).resolves.toEqual(success);
        else await expect(request).rejects.toEqual(refused(/^You cannot invite users with a role above your own$/));
      }
      const stored = await invitations();
      expect(stored.map((row) => row.invite_as)).toEqual([100, 200, 300, 400, 600].filter((role) => role >= ROLE[who]));
      expect(stored.every((row) => row.inviter_id === server.logins[who].userId)).toBe(true);
    });

    it.each(ALL)('channels while only administrators may add subscribers: %s', async (who) => {
      await server.db.query('UPDATE realm SET can_add_subscribers_group_id = $1', [GROUP.administrators]);
      const request = invite(who, { stream_ids: [CHANNEL.announcements] });
      if (who === 'owner' || who === 'admin') await expect(request).resolves.toEqual(success);
      else if (INVITERS.includes(who)) await expect(request).rejects.toEqual(refused(/^You do not have permission to subscribe other users to channels$/));
      else await expect(request).rejects.toEqual(refused(/^Insufficient permission$/));
      expect((await invitations()).map((row) => row.channels)).toEqual(who === 'owner' || who === 'admin' ? [[CHANNEL.announcements]] : []);
    });

    it('lets channel administrators add subscribers whatever the organization setting', async () => {
      await server.db.query('UPDATE realm SET can_add_subscribers_group_id = $1', [GROUP.administrators]);
      // Dana administers engineering through the backend group.
      await invite('member', { stream_ids: [CHANNEL.engineering] });
      await expect(invite('moderator', { stream_ids: [CHANNEL.engineering] })).rejects.toEqual(refused(/subscribe other users/));
      expect((await invitations()).map((row) => [row.inviter_id, row.channels])).toEqual([[5, [CHANNEL.engineering]]]);
    });

    it.each(ALL)('groups: %s', async (who) => {
      const request = invite(who, { group_ids: [GROUP.backend] });
      if (who === 'owner' || who === 'admin') await expect(request).resolves.toEqual(success);
      else if (INVITERS.includes(who)) await expect(request).rejects.toEqual(refused(/^You do not have permission to add members to the user group backend$/));
      else await expect(request).rejects.toEqual(refused(/^Insufficient permission$/));
      expect((await invitations()).map((row) => row.groups)).toEqual(who === 'owner' || who === 'admin' ? [[GROUP.backend]] : []);
    });

    it.each(ALL)('welcome message text: %s', async (who) => {
      const request = invite(who, { welcome_message_custom_text: 'Welcome aboard!' });
      if (!INVITERS.includes(who)) return expect(request).rejects.toEqual(refused(/^Insufficient permission$/));
      await expect(request).resolves.toEqual(success);
      const [stored] = await invitations();
      expect(stored!.welcome_message_custom_text).toBe(who === 'owner' || who === 'admin' ? 'Welcome aboard!' : null);
    });
  });

  it('follows the organization setting of who may invite', async () => {
    await server.db.query('UPDATE realm SET can_invite_users_group_id = $1', [GROUP.administrators]);
    await expect(invite('moderator')).rejects.toEqual(refused(/^Insufficient permission$/));
    await expect(invite('admin')).resolves.toEqual(success);
  });

  it('stores an invitation with every setting', async () => {
    await invite('admin', {
      invitee_emails: 'sam@example.com, lee@example.com',
      stream_ids: [CHANNEL.engineering, CHANNEL.general],
      group_ids: [GROUP.backend],
      invite_as: 300,
      invite_expires_in_minutes: 1440,
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
      welcome_message_custom_text: 'Welcome to Lakeside Labs! Start in #engineering.',
    });
    const common = {
      inviter_id: 3,
      invite_as: 300,
      created_at: NOW,
      expires_at: NOW + 1440 * 60,
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
      welcome_message_custom_text: 'Welcome to Lakeside Labs! Start in #engineering.',
      channels: [CHANNEL.general, CHANNEL.engineering],
      groups: [GROUP.backend],
      accepted_user_id: null,
      revoked: false,
    };
    expect(await invitations()).toEqual([
      { id: expect.any(Number), email: 'sam@example.com', ...common },
      { id: expect.any(Number), email: 'lee@example.com', ...common },
    ]);
  });

  it('applies the defaults: member role, server expiry, notify the inviter, no default channels, organization welcome text', async () => {
    await invite('member');
    expect(await invitations()).toEqual([
      expect.objectContaining({
        invite_as: 400,
        expires_at: NOW + DEFAULT_MINUTES * 60,
        include_realm_default_subscriptions: false,
        notify_referrer_on_join: true,
        welcome_message_custom_text: null,
        channels: [],
        groups: [],
      }),
    ]);
  });

  it('never expires with null, and takes an explicit 14400 as given', async () => {
    await invite('member', { invitee_emails: 'never@example.com', invite_expires_in_minutes: null });
    await invite('member', { invitee_emails: 'tendays@example.com', invite_expires_in_minutes: 14400 });
    expect((await invitations()).map((row) => row.expires_at)).toEqual([null, NOW + 14400 * 60]);
  });

  it.each([
    [0, /^invite_expires_in_minutes must be positive$/],
    [-5, /^invite_expires_in_minutes must be positive$/],
    [Number.MAX_SAFE_INTEGER, /^invite_expires_in_minutes is too large$/],
  ])('refuses an expiry of %d minutes', async (minutes, msg) => {
    await expect(invite('member', { invite_expires_in_minutes: minutes })).rejects.toEqual(refused(msg));
    expect(await emails()).toEqual([]);
  });

  it('splits addresses on commas and newlines, trims them, drops duplicates and reads Name <address>', async () => {
    await invite('member', { invitee_emails: ' sam@example.com,\nLee Park <lee@example.com>\n\n,SAM@example.com , ' });
    expect(await emails()).toEqual(['sam@example.com', 'lee@example.com']);
  });

  it.each(['', ' , \n ,'])('refuses no address at all: %j', async (text) => {
    await expect(invite('member', { invitee_emails: text })).rejects.toEqual(refused(/^You must specify at least one email address$/));
  });

  it('invites the others when some addresses already have accounts', async () => {
    await expect(invite('member', { invitee_emails: 'member@example.com, new1@example.com, Admin@Example.com' })).rejects.toEqual(
      failed(
        [
          ['member@example.com', 'Already has an account.', false],
          ['Admin@Example.com', 'Already has an account.', false],
        ],
        true,
      ),
    );
    expect(await emails()).toEqual(['new1@example.com']);
  });

  it('reports sent_invitations false when nobody could be invited', async () => {
    await server.db.query('UPDATE users SET is_active = false WHERE id = 6');
    await expect(invite('member', { invitee_emails: 'member@example.com\nguest@example.com' })).rejects.toEqual(
      failed(
        [
          ['member@example.com', 'Already has an account.', false],
          ['guest@example.com', 'Account has been deactivated.', true],
        ],
        false,
      ),
    );
    expect(await emails()).toEqual([]);
  });

  it('refuses addresses outside the allowed domains and invalid ones the same way', async () => {
    await expect(invite('admin', { invitee_emails: 'pat@example.org, not-an-address, pat@eu.example.com, ok@example.com' })).rejects.toEqual(
      failed(
        [
          ['pat@example.org', 'Outside your domain.', false],
          ['not-an-address', 'Invalid address.', false],
          ['pat@eu.example.com', 'Outside your domain.', false],
        ],
        true,
      ),
    );
    expect(await emails()).toEqual(['ok@example.com']);
    await server.db.query('UPDATE realm_domains SET allow_subdomains = true');
    try {
      await invite('admin', { invitee_emails: 'pat@eu.example.com' });
      expect(await emails()).toEqual(['ok@example.com', 'pat@eu.example.com']);
    } finally {
      await server.db.query('UPDATE realm_domains SET allow_subdomains = false');
    }
  });

  describe('channels', () => {
    it.each<[string, Who, number]>([
      ['an unknown channel', 'owner', 999],
      ['a channel id beyond 32 bits', 'owner', 3_000_000_000],
      ['an archived channel', 'owner', CHANNEL.archive],
      ['a private channel the caller cannot see', 'member', CHANNEL.design],
    ])('refuses %s and sends nothing', async (_case, who, id) => {
      await expect(invite(who, { invitee_emails: 'a@example.com, b@example.com', stream_ids: [CHANNEL.general, id] })).rejects.toEqual(
        refused(new RegExp(`^Invalid channel ID ${id}; no invitations were sent$`)),
      );
      expect(await emails()).toEqual([]);
    });

    it('lets an administrator who is not subscribed invite to a private channel', async () => {
      await invite('admin', { stream_ids: [CHANNEL.design] });
      expect((await invitations())[0]!.channels).toEqual([CHANNEL.design]);
    });

    it('accepts default channels, and default subscriptions, from a caller who may not subscribe others', async () => {
      await server.db.query('UPDATE realm SET can_add_subscribers_group_id = $1', [GROUP.administrators]);
      await invite('member', { stream_ids: [CHANNEL.general], include_realm_default_subscriptions: true });
      expect(await invitations()).toEqual([expect.objectContaining({ channels: [CHANNEL.general], include_realm_default_subscriptions: true })]);
    });

    it("lets a member of a channel's own add-subscribers group invite to it", async () => {
      await server.db.query('UPDATE realm SET can_add_subscribers_group_id = $1', [GROUP.administrators]);
      const { rows } = await server.db.query<{ id: number }>('SELECT can_add_subscribers_group_id AS id FROM channels WHERE id = $1', [CHANNEL.announcements]);
      await server.db.query('UPDATE channels SET can_add_subscribers_group_id = $2 WHERE id = $1', [CHANNEL.announcements, GROUP.backend]);
      try {
        await invite('member', { stream_ids: [CHANNEL.announcements] });
        await expect(invite('moderator', { stream_ids: [CHANNEL.announcements] })).rejects.toEqual(refused(/subscribe other users/));
      } finally {
        await server.db.query('UPDATE channels SET can_add_subscribers_group_id = $2 WHERE id = $1', [CHANNEL.announcements, rows[0]!.id]);
      }
      expect((await invitations()).map((row) => row.inviter_id)).toEqual([5]);
    });
  });

  it.each([
    ['an unknown group', 999],
    ['a system group', GROUP.members],
  ])('refuses %s', async (_case, id) => {
    await expect(invite('owner', { group_ids: [id] })).rejects.toEqual(refused(new RegExp(`^Invalid user group ID ${id}$`)));
    expect(await emails()).toEqual([]);
  });

  it('accepts a welcome text of 8000 code points and refuses 8001', async () => {
    await invite('admin', { welcome_message_custom_text: '👋'.repeat(8000) });
    expect((await invitations())[0]!.welcome_message_custom_text).toBe('👋'.repeat(8000));
    await expect(invite('admin', { invitee_emails: 'x@example.com', welcome_message_custom_text: '👋'.repeat(8001) })).rejects.toEqual(
      refused(/welcome_message_custom_text/),
    );
    expect(await emails()).toEqual(['sam@example.com']);
  });

  it('stores an empty welcome text from an administrator as no custom text', async () => {
    await invite('owner', { welcome_message_custom_text: '' });
    expect((await invitations())[0]!.welcome_message_custom_text).toBe('');
  });
});
