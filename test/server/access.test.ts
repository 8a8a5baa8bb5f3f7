import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiError } from '../../generated/client.js';
import { canAccessChannelContent, canAccessChannelMetadata, canAccessMessage } from '../../server/domain/access.js';
import { CHANNEL, GROUP, USER } from '../../server/seed/demo-data.js';
import { getChannel, insertChannel, subscribe } from '../../server/store/channels.js';
import { setChannelGroupSetting } from '../../server/store/groups.js';
import { getMessage, insertMessage } from '../../server/store/messages.js';
import type { ChannelRow, MessageRow } from '../../server/store/rows.js';
import { drivers, startTestServer, type TestServer } from '../support/server.js';

const ROLE = { ada: { id: USER.ada, role: 100 }, ben: { id: USER.ben, role: 200 }, chen: { id: USER.chen, role: 300 }, dana: { id: USER.dana, role: 400 }, eli: { id: USER.eli, role: 600 } } as const;

describe.each(drivers)('access rules on %s', (driver) => {
  let server: TestServer;
  // A private channel with protected history: Ada from the start, Chen joins after the first message.
  let protectedChannel: ChannelRow;
  let early: MessageRow;
  let late: MessageRow;
  beforeAll(async () => {
    server = await startTestServer(driver);
    const db = server.db;
    const id = await db.transaction(async (tx) => {
      const channelId = await insertChannel(tx, {
        name: 'protected',
        isPrivate: true,
        historyPublicToSubscribers: false,
        groups: {
          canAddSubscribers: GROUP['role:nobody'],
          canRemoveSubscribers: GROUP['role:administrators'],
          canAdminister: GROUP['role:nobody'],
          canDeleteAnyMessage: GROUP['role:nobody'],
          canDeleteOwnMessage: GROUP['role:everyone'],
          canSendMessage: GROUP['role:everyone'],
          canCreateTopic: GROUP['role:everyone'],
        },
      });
      await subscribe(tx, USER.ada, channelId, 1000);
      return channelId;
    });
    early = (await getMessage(db, await insertMessage(db, { senderId: USER.ada, to: { channelId: id, topic: 't' }, content: 'early', renderedContent: '<p>early</p>', sentAt: 1500 })))!;
    await subscribe(db, USER.chen, id, 2000);
    late = (await getMessage(db, await insertMessage(db, { senderId: USER.ada, to: { channelId: id, topic: 't' }, content: 'late', renderedContent: '<p>late</p>', sentAt: 2500 })))!;
    protectedChannel = (await getChannel(db, id))!;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows protected history only from the subscription on', async () => {
    expect(await canAccessMessage(server.db, ROLE.ada, early)).toBe(true);
    expect(await canAccessMessage(server.db, ROLE.chen, early)).toBe(false);
    expect(await canAccessMessage(server.db, ROLE.chen, late)).toBe(true);
    expect(await canAccessMessage(server.db, ROLE.ben, late)).toBe(false);
    const error = await server.client('moderator').getMessage({ message_id: early.id }).catch((e: unknown) => e);
    expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
    expect((await server.client('moderator').getMessage({ message_id: late.id })).message.content).toBe('<p>late</p>');
  });

  it('hides a private channel from former subscribers', async () => {
    await server.db.query('UPDATE subscriptions SET active = false WHERE user_id = $1 AND channel_id = $2', [USER.chen, protectedChannel.id]);
    try {
      expect(await canAccessMessage(server.db, ROLE.chen, late)).toBe(false);
      expect(await canAccessChannelMetadata(server.db, ROLE.chen, protectedChannel)).toBe(false);
    } finally {
      await subscribe(server.db, USER.chen, protectedChannel.id);
    }
  });

  it('lets guests read web-public and subscribed channels only', async () => {
    const channel = async (id: number) => (await getChannel(server.db, id))!;
    expect(await canAccessChannelContent(server.db, ROLE.eli, await channel(CHANNEL.announcements))).toBe(true);
    expect(await canAccessChannelContent(server.db, ROLE.eli, await channel(CHANNEL.general))).toBe(true);
    expect(await canAccessChannelContent(server.db, ROLE.eli, await channel(CHANNEL.engineering))).toBe(false);
    expect(await canAccessChannelMetadata(server.db, ROLE.eli, await channel(CHANNEL.engineering))).toBe(false);
    expect(await canAccessChannelContent(server.db, ROLE.dana, await channel(CHANNEL.engineering))).toBe(true);
  });

  it('gives private-channel metadata to administrators, channel administrators and subscriber-adders, content to subscribers', async () => {
    const design = (await getChannel(server.db, CHANNEL.design))!;
    expect(await canAccessChannelMetadata(server.db, ROLE.ben, design)).toBe(true);
    expect(await canAccessChannelContent(server.db, ROLE.ben, design)).toBe(false);
    expect(await canAccessChannelMetadata(server.db, ROLE.dana, design)).toBe(false);
    await server.db.transaction((tx) => setChannelGroupSetting(tx, design.id, 'can_add_subscribers_group', GROUP.backend));
    expect(await canAccessChannelMetadata(server.db, ROLE.dana, (await getChannel(server.db, design.id))!)).toBe(true);
    await server.db.transaction((tx) => setChannelGroupSetting(tx, design.id, 'can_add_subscribers_group', GROUP['role:nobody']));
    await server.db.transaction((tx) => setChannelGroupSetting(tx, design.id, 'can_administer_channel_group', GROUP.frontend));
    expect(await canAccessChannelMetadata(server.db, ROLE.chen, (await getChannel(server.db, design.id))!)).toBe(true);
    expect(await canAccessChannelMetadata(server.db, ROLE.dana, (await getChannel(server.db, design.id))!)).toBe(false);
    await server.db.transaction((tx) => setChannelGroupSetting(tx, design.id, 'can_administer_channel_group', GROUP['role:nobody']));
  });

  it('limits direct messages to their participants', async () => {
    const dm = (await getMessage(server.db, 105))!;
    expect(await canAccessMessage(server.db, ROLE.ben, dm)).toBe(true);
    expect(await canAccessMessage(server.db, ROLE.dana, dm)).toBe(true);
    expect(await canAccessMessage(server.db, ROLE.ada, dm)).toBe(false);
  });
});
