import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../generated/client.js';
import type { UpdateStreamParams } from '../../generated/types.js';
import { CHANNEL, GROUP, USER } from '../../server/seed/demo-data.js';
import { insertChannel, subscribe, type NewChannel } from '../../server/store/channels.js';
import { directMemberIds, directSubgroupIds, getGroup, setChannelGroupSetting } from '../../server/store/groups.js';
import { insertMessage } from '../../server/store/messages.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const NOT_ADMINISTRATOR = 'You do not have permission to administer this channel';
const INVALID_CHANNEL = 'Invalid channel ID';
const MUST_SUBSCRIBE = 'You must be subscribed to this private channel to change its permission settings';

describe.each(drivers)('update-stream on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });

  let created = 0;
  /** A fresh channel for one test, so tests never depend on each other's changes. */
  async function makeChannel(options: Partial<NewChannel> & { subscribers?: number[] } = {}): Promise<number> {
    const { subscribers = [USER.ada, USER.ben, USER.chen, USER.dana], ...channel } = options;
    return server.db.transaction(async (tx) => {
      const id = await insertChannel(tx, {
        name: `test-${driver}-${++created}`,
        groups: {
          canAddSubscribers: GROUP['role:nobody'],
          canRemoveSubscribers: GROUP['role:administrators'],
          canAdminister: GROUP['role:nobody'],
          canDeleteAnyMessage: GROUP['role:nobody'],
          canDeleteOwnMessage: GROUP['role:everyone'],
          canSendMessage: GROUP['role:everyone'],
          canCreateTopic: GROUP['role:everyone'],
        },
        ...channel,
      });
      for (const userId of subscribers) await subscribe(tx, userId, id);
      return id;
    });
  }

  async function channelRow(id: number): Promise<ChannelRow> {
    const { rows } = await server.db.query<ChannelRow>('SELECT * FROM channels WHERE id = $1', [id]);
    return rows[0]!;
  }

  const update = (who: Who, params: UpdateStreamParams) => server.client(who).updateStream(params);

  async function refused(promise: Promise<unknown>, msg?: string | RegExp): Promise<void> {
    const error = await promise.then(
      () => expect.unreachable('expected BAD_REQUEST'),
      (e: unknown) => e,
    );
    expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
    if (typeof msg === 'string') expect((error as { msg: string }).msg).toBe(msg);
    if (msg instanceof RegExp) expect((error as { msg: string }).msg).toMatch(msg);
  }

  describe('who may edit', () => {
    // general: public, everyone subscribed, nobody administers it through the channel setting.
    it.each([
      ['owner', true],
      ['admin', true],
      ['moderator', false],
      ['member', false],
      ['guest', false],
      ['bot', false],
    ] as const)('a plain property of a public channel: %s -> %s', async (who, allowed) => {
      const id = await makeChannel({ subscribers: [2, 3, 4, 5, 6, 7] });
      const call = update(who, { stream_id: id, description: `by ${who}` });
      if (allowed) {
        await call;
        expect((await channelRow(id)).description).toBe(`by ${who}`);
      } else {
        await refused(call, NOT_ADMINISTRATOR);
        expect((await channelRow(id)).description).toBe('');
      }
    });

    // Channel administrators: Ben directly and the backend group (Ben, Dana).
    it.each([
      ['owner', 'ok'],
      ['admin', 'ok'],
      ['moderator', NOT_ADMINISTRATOR],
      ['member', 'ok'],
      ['guest', INVALID_CHANNEL],
      ['bot', NOT_ADMINISTRATOR],
    ] as const)('a channel administered by a group: %s -> %s', async (who, outcome) => {
      const id = await makeChannel({ subscribers: [2, 3, 4, 5, 7] });
      await server.db.transaction((tx) =>
        setChannelGroupSetting(tx, id, 'can_administer_channel_group', { direct_members: [USER.ben], direct_subgroups: [GROUP.backend] }),
      );
      const call = update(who, { stream_id: id, new_name: `renamed-${driver}-${who}` });
      if (outcome === 'ok') {
        await call;
        expect((await channelRow(id)).name).toBe(`renamed-${driver}-${who}`);
      } else {
        await refused(call, outcome);
      }
    });

    // A private channel with Ada and Chen subscribed: permissions need a subscription even for administrators.
    it.each([
      ['owner', 'ok'],
      ['admin', MUST_SUBSCRIBE],
      ['moderator', NOT_ADMINISTRATOR],
      ['member', INVALID_CHANNEL],
      ['guest', INVALID_CHANNEL],
      ['bot', INVALID_CHANNEL],
    ] as const)('a permission of a private channel: %s -> %s', async (who, outcome) => {
      const id = await makeChannel({ isPrivate: true, subscribers: [USER.ada, USER.chen] });
      const call = update(who, { stream_id: id, can_remove_subscribers_group: { new: GROUP['role:moderators'] } });
      if (outcome === 'ok') {
        await call;
        expect((await channelRow(id)).can_remove_subscribers_group_id).toBe(GROUP['role:moderators']);
      } else {
        await refused(call, outcome);
        expect((await channelRow(id)).can_remove_subscribers_group_id).toBe(GROUP['role:administrators']);
      }
    });

    it('lets an administrator change a private channel permission once subscribed, and plain properties without', async () => {
      const id = await makeChannel({ isPrivate: true, subscribers: [USER.ada] });
      await update('admin', { stream_id: id, description: 'seen by admins' });
      expect((await channelRow(id)).description).toBe('seen by admins');
      await refused(update('admin', { stream_id: id, can_delete_any_message_group: { new: GROUP['role:moderators'] } }), MUST_SUBSCRIBE);
      await subscribe(server.db, USER.ben, id);
      await update('admin', { stream_id: id, can_delete_any_message_group: { new: GROUP['role:moderators'] } });
      expect((await channelRow(id)).can_delete_any_message_group_id).toBe(GROUP['role:moderators']);
    });

    it('lets an unsubscribed channel administrator of a private channel change metadata settings but not content ones', async () => {
      const id = await makeChannel({ isPrivate: true, subscribers: [USER.ada] });
      await server.db.transaction((tx) =>
        setChannelGroupSetting(tx, id, 'can_administer_channel_group', { direct_members: [USER.dana], direct_subgroups: [] }),
      );
      await update('member', { stream_id: id, new_name: `admin-by-dana-${driver}`, can_remove_subscribers_group: { new: GROUP['role:members'] } });
      const row = await channelRow(id);
      expect(row.name).toBe(`admin-by-dana-${driver}`);
      expect(row.can_remove_subscribers_group_id).toBe(GROUP['role:members']);
      for (const setting of ['can_add_subscribers_group', 'can_delete_any_message_group', 'can_delete_own_message_group'] as const) {
        await refused(update('member', { stream_id: id, [setting]: { new: GROUP['role:members'] } }), `Changing ${setting} needs access to the channel's content`);
      }
      await subscribe(server.db, USER.dana, id);
      await update('member', { stream_id: id, can_add_subscribers_group: { new: GROUP['role:members'] } });
      expect((await channelRow(id)).can_add_subscribers_group_id).toBe(GROUP['role:members']);
    });

    it('refuses an unknown channel like an invisible one', async () => {
      await refused(update('owner', { stream_id: 999_999, description: 'x' }), INVALID_CHANNEL);
    });
  });

  describe('privacy', () => {
    it('refuses hiding history on a public or web-public channel, or together with is_private false', async () => {
      const id = await makeChannel();
      const publicHistory = 'A public channel must keep its history public to subscribers';
      await refused(update('owner', { stream_id: id, history_public_to_subscribers: false }), publicHistory);
      await refused(update('owner', { stream_id: CHANNEL.announcements, history_public_to_subscribers: false }), publicHistory);
      const privateId = await makeChannel({ isPrivate: true, subscribers: [USER.ada] });
      await refused(update('owner', { stream_id: privateId, is_private: false, history_public_to_subscribers: false }), publicHistory);
      expect((await channelRow(privateId)).is_private).toBe(true);
    });

    it('hides history on a private channel only when everyone may create topics', async () => {
      const id = await makeChannel({ isPrivate: true, historyPublicToSubscribers: true, subscribers: [USER.ada] });
      await update('owner', { stream_id: id, history_public_to_subscribers: false });
      expect((await channelRow(id)).history_public_to_subscribers).toBe(false);
      const restricted = await makeChannel({ isPrivate: true, historyPublicToSubscribers: true, subscribers: [USER.ada] });
      await server.db.query('UPDATE channels SET can_create_topic_group_id = $2 WHERE id = $1', [restricted, GROUP['role:members']]);
      await refused(update('owner', { stream_id: restricted, history_public_to_subscribers: false }), /can_create_topic_group is role:everyone/);
      expect((await channelRow(restricted)).history_public_to_subscribers).toBe(true);
    });

    it('makes a private channel with hidden history public, and its history public with it', async () => {
      const id = await makeChannel({ isPrivate: true, historyPublicToSubscribers: false, subscribers: [USER.ada] });
      await update('owner', { stream_id: id, is_private: false });
      expect(await channelRow(id)).toMatchObject({ is_private: false, history_public_to_subscribers: true });
      await update('owner', { stream_id: id, is_private: true, history_public_to_subscribers: false });
      expect(await channelRow(id)).toMatchObject({ is_private: true, history_public_to_subscribers: false });
    });

    it('refuses a channel both private and web-public', async () => {
      const id = await makeChannel();
      await refused(update('owner', { stream_id: id, is_private: true, is_web_public: true }), 'A channel cannot be both private and web-public');
    });

    it('makes a channel web-public only with the server setting, the organization setting and the permission', async () => {
      const id = await makeChannel();
      // can_create_web_public_channel_group is role:owners in the demo organization.
      await refused(update('admin', { stream_id: id, is_web_public: true }), 'Insufficient permission to make a channel web-public');
      await server.db.query('UPDATE realm SET enable_spectator_access = false');
      try {
        await refused(update('owner', { stream_id: id, is_web_public: true }), 'Web-public channels are not enabled in this organization');
      } finally {
        await server.db.query('UPDATE realm SET enable_spectator_access = true');
      }
      server.config.webPublicStreamsEnabled = false;
      try {
        await refused(update('owner', { stream_id: id, is_web_public: true }), 'Web-public channels are not enabled on this server');
      } finally {
        server.config.webPublicStreamsEnabled = true;
      }
      expect((await channelRow(id)).is_web_public).toBe(false);
      await update('owner', { stream_id: id, is_web_public: true });
      expect(await channelRow(id)).toMatchObject({ is_web_public: true, is_private: false });
      // Making it private turns web-public off.
      await update('owner', { stream_id: id, is_private: true });
      expect(await channelRow(id)).toMatchObject({ is_web_public: false, is_private: true });
    });
  });

  describe('properties', () => {
    it('renames, trimming, and refuses empty, too long and taken names', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, new_name: `  fresh-${driver}  ` });
      expect((await channelRow(id)).name).toBe(`fresh-${driver}`);
      await refused(update('admin', { stream_id: id, new_name: '   ' }), "Channel name can't be empty");
      await refused(update('admin', { stream_id: id, new_name: 'x'.repeat(61) }), 'Channel name too long (limit: 60 characters)');
      await refused(update('admin', { stream_id: id, new_name: 'GENERAL' }), "Channel 'GENERAL' already exists");
      // A change of case of its own name is allowed.
      await update('admin', { stream_id: id, new_name: `FRESH-${driver}` });
      expect((await channelRow(id)).name).toBe(`FRESH-${driver}`);
    });

    it('stores the description with its rendering, and refuses one over the limit', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, description: 'Fixes for **#12** <b>' });
      expect(await channelRow(id)).toMatchObject({
        description: 'Fixes for **#12** <b>',
        rendered_description: '<p>Fixes for <strong><a href="https://github.com/lakeside/app/issues/12">#12</a></strong> &lt;b&gt;</p>',
      });
      await refused(update('admin', { stream_id: id, description: 'd'.repeat(1025) }), 'Channel description too long (limit: 1024 characters)');
    });

    it('adds and removes default-channel status, administrators only, never for a private channel', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, is_default_stream: true });
      expect((await channelRow(id)).is_default).toBe(true);
      await refused(update('admin', { stream_id: id, is_private: true }), 'A default channel cannot be private');
      await update('admin', { stream_id: id, is_private: true, is_default_stream: false });
      expect(await channelRow(id)).toMatchObject({ is_default: false, is_private: true });
      await refused(update('owner', { stream_id: id, is_default_stream: true }), 'A default channel cannot be private');
      const administered = await makeChannel();
      await server.db.transaction((tx) => setChannelGroupSetting(tx, administered, 'can_administer_channel_group', GROUP.backend));
      await refused(update('member', { stream_id: administered, is_default_stream: true }), /organization administrator/);
    });

    it('sets message retention in days, back to the organization default, or unlimited', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, message_retention_days: 30 });
      expect((await channelRow(id)).message_retention_days).toBe(30);
      await update('admin', { stream_id: id, message_retention_days: 'unlimited' });
      expect((await channelRow(id)).message_retention_days).toBe(-1);
      await update('admin', { stream_id: id, message_retention_days: 'realm_default' });
      expect((await channelRow(id)).message_retention_days).toBeNull();
      await refused(update('admin', { stream_id: id, message_retention_days: 0 }));
      await server.db.transaction((tx) => setChannelGroupSetting(tx, id, 'can_administer_channel_group', GROUP.backend));
      await refused(update('member', { stream_id: id, message_retention_days: 7 }), /organization administrator/);
    });

    it('moves the channel into a folder and out of it with null', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, folder_id: 1 });
      expect((await channelRow(id)).folder_id).toBe(1);
      await update('admin', { stream_id: id, folder_id: null });
      expect((await channelRow(id)).folder_id).toBeNull();
      await refused(update('admin', { stream_id: id, folder_id: 999 }), 'Invalid channel folder ID');
    });
  });

  describe('state transitions', () => {
    it('unarchives with is_archived false and refuses archiving', async () => {
      const id = await makeChannel({ isArchived: true });
      await refused(update('admin', { stream_id: id, is_archived: true }), 'Channels can only be unarchived here; is_archived must be false');
      await update('admin', { stream_id: id, is_archived: false });
      expect((await channelRow(id)).is_archived).toBe(false);
      // Not archived: false changes nothing, true is still refused.
      await update('admin', { stream_id: id, is_archived: false });
      await refused(update('admin', { stream_id: id, is_archived: true }));
      expect((await channelRow(id)).is_archived).toBe(false);
    });

    it('edits only the privacy of an archived channel, unless the same request unarchives it', async () => {
      const id = await makeChannel({ isArchived: true });
      await refused(update('admin', { stream_id: id, description: 'x' }), 'An archived channel must be unarchived before changing description');
      await update('admin', { stream_id: id, is_private: true });
      expect(await channelRow(id)).toMatchObject({ is_private: true, is_archived: true });
      await update('admin', { stream_id: id, is_archived: false, description: 'back' });
      expect(await channelRow(id)).toMatchObject({ description: 'back', is_archived: false });
    });

    it('allows empty_topic_only only when every message is in the empty topic', async () => {
      const id = await makeChannel();
      await insertMessage(server.db, { senderId: USER.ada, to: { channelId: id, topic: '' }, content: 'a', renderedContent: '<p>a</p>' });
      await update('admin', { stream_id: id, topics_policy: 'empty_topic_only' });
      expect((await channelRow(id)).topics_policy).toBe('empty_topic_only');
      await update('admin', { stream_id: id, topics_policy: 'disable_empty_topic' });
      expect((await channelRow(id)).topics_policy).toBe('disable_empty_topic');
      await insertMessage(server.db, { senderId: USER.ada, to: { channelId: id, topic: 'named' }, content: 'b', renderedContent: '<p>b</p>' });
      await refused(
        update('admin', { stream_id: id, topics_policy: 'empty_topic_only' }),
        'All messages in the channel must be in the empty topic before the policy can be empty_topic_only',
      );
      for (const policy of ['allow_empty_topic', 'inherit'] as const) {
        await update('admin', { stream_id: id, topics_policy: policy });
        expect((await channelRow(id)).topics_policy).toBe(policy);
      }
    });
  });

  describe('group settings', () => {
    it('sets a named group or an anonymous set of users and groups', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, can_add_subscribers_group: { new: GROUP.engineering } });
      expect((await channelRow(id)).can_add_subscribers_group_id).toBe(GROUP.engineering);
      await update('admin', {
        stream_id: id,
        can_add_subscribers_group: { new: { direct_members: [USER.dana, USER.chen], direct_subgroups: [GROUP.frontend] }, old: GROUP.engineering },
      });
      const groupId = (await channelRow(id)).can_add_subscribers_group_id;
      expect((await getGroup(server.db, groupId))!.name).toBeNull();
      expect(await directMemberIds(server.db, groupId)).toEqual([USER.chen, USER.dana]);
      expect(await directSubgroupIds(server.db, groupId)).toEqual([GROUP.frontend]);
      // The old anonymous value matches in any order; the replaced anonymous group is dropped.
      await update('admin', {
        stream_id: id,
        can_add_subscribers_group: { new: GROUP['role:members'], old: { direct_members: [USER.dana, USER.chen], direct_subgroups: [GROUP.frontend] } },
      });
      expect((await channelRow(id)).can_add_subscribers_group_id).toBe(GROUP['role:members']);
      expect(await getGroup(server.db, groupId)).toBeNull();
    });

    it('stores an anonymous value that is exactly one group as that group', async () => {
      const id = await makeChannel();
      await update('admin', { stream_id: id, can_delete_own_message_group: { new: { direct_members: [], direct_subgroups: [GROUP['role:moderators']] } } });
      expect((await channelRow(id)).can_delete_own_message_group_id).toBe(GROUP['role:moderators']);
    });

    it('refuses a mismatched old value and changes nothing', async () => {
      const id = await makeChannel();
      await refused(
        update('admin', { stream_id: id, new_name: `never-${driver}`, can_administer_channel_group: { new: GROUP.backend, old: GROUP['role:members'] } }),
        "'old' value does not match the expected value",
      );
      expect(await channelRow(id)).toMatchObject({ name: `test-${driver}-${created}`, can_administer_channel_group_id: GROUP['role:nobody'] });
      await update('admin', { stream_id: id, can_administer_channel_group: { new: GROUP.backend, old: GROUP['role:nobody'] } });
      expect((await channelRow(id)).can_administer_channel_group_id).toBe(GROUP.backend);
    });

    it('refuses unknown groups and users, anonymous groups by id and role:internet', async () => {
      const id = await makeChannel();
      await refused(update('admin', { stream_id: id, can_remove_subscribers_group: { new: 999 } }), 'Invalid user group ID: 999');
      await refused(update('admin', { stream_id: id, can_remove_subscribers_group: { new: GROUP['role:internet'] } }), /Invalid user group ID/);
      await refused(update('admin', { stream_id: id, can_remove_subscribers_group: { new: { direct_members: [999], direct_subgroups: [] } } }), 'Invalid user ID: 999');
      await refused(update('admin', { stream_id: id, can_remove_subscribers_group: { new: { direct_members: [], direct_subgroups: [999] } } }), 'Invalid user group ID: 999');
      const { rows } = await server.db.query<{ id: number }>('SELECT id FROM user_groups WHERE name IS NULL LIMIT 1');
      await refused(update('admin', { stream_id: id, can_remove_subscribers_group: { new: rows[0]!.id } }), /Invalid user group ID/);
      expect((await channelRow(id)).can_remove_subscribers_group_id).toBe(GROUP['role:administrators']);
    });
  });

  it('applies several changes together, or none when one is refused', async () => {
    const id = await makeChannel();
    await insertMessage(server.db, { senderId: USER.ada, to: { channelId: id, topic: 'named' }, content: 'a', renderedContent: '<p>a</p>' });
    const before = await channelRow(id);
    await refused(
      update('admin', { stream_id: id, new_name: `all-${driver}`, description: 'd', folder_id: 1, can_delete_any_message_group: { new: GROUP.backend }, topics_policy: 'empty_topic_only' }),
    );
    expect(await channelRow(id)).toEqual(before);
    await update('admin', { stream_id: id, new_name: `all-${driver}`, description: 'd', folder_id: 1, can_delete_any_message_group: { new: GROUP.backend }, topics_policy: 'disable_empty_topic' });
    expect(await channelRow(id)).toMatchObject({
      name: `all-${driver}`,
      description: 'd',
      folder_id: 1,
      can_delete_any_message_group_id: GROUP.backend,
      topics_policy: 'disable_empty_topic',
    });
  });
});
