import { randomBytes } from 'node:crypto';
import { newCredentials } from '../auth/credentials.js';
import { nowSeconds, type Db } from '../store/db.js';
import { storeGroupSettingValue } from '../store/groups.js';
import { addReaction, applyMessageEdit, insertMessage, setFlag } from '../store/messages.js';
import { recordPresence } from '../store/presence.js';
import { channelRecipientId } from '../store/recipients.js';
import { getRealm } from '../store/realm.js';
import { insertReminder } from '../store/reminders.js';
import type { Role } from '../store/rows.js';
import { insertChannel, subscribe } from '../store/channels.js';
import { insertUser } from '../store/users.js';
import {
  CHANNEL,
  CHANNELS,
  CUSTOM_EMOJI,
  CUSTOM_GROUPS,
  FOLDERS,
  GROUP,
  LINKIFIER,
  MESSAGES,
  ORGANIZATION,
  PLAYGROUND,
  PROFILE_FIELDS,
  PROFILE_VALUES,
  REMINDER,
  RENDERED_DESCRIPTIONS,
  SCHEDULED_MESSAGE,
  STATUS,
  SYSTEM_GROUP_IDS,
  TADA,
  USER,
  USERS,
} from './demo-data.js';

export interface DemoLogin {
  userId: number;
  email: string;
  fullName: string;
  role: Role;
  isBot: boolean;
  apiKey: string;
}

export interface DemoSeedOptions {
  /** Password of every human account. */
  password: string;
  /** Server secret sealing the API keys (server/auth/secret.ts). */
  secret: Buffer;
  /** Organization video-call provider; null leaves it unset. */
  videoChatProvider: string | null;
  now?: number;
}

// Tables whose ids the seed chooses; their sequences must continue after them.
const SEEDED_ID_TABLES = [
  'user_groups', 'channel_folders', 'users', 'channels', 'custom_profile_fields', 'custom_emoji', 'messages',
  'scheduled_messages', 'reminders', 'linkifiers', 'code_playgrounds',
] as const;

/** Seeds the demo organization when the database has none; returns its logins, or null when one exists. */
export async function seedDemoIfEmpty(db: Db, options: DemoSeedOptions): Promise<DemoLogin[] | null> {
  return db.transaction(async (tx) => {
    // Serialises concurrent first starts on one PostgreSQL.
    await tx.query('LOCK TABLE realm IN EXCLUSIVE MODE');
    if (await getRealm(tx)) return null;
    return seed(tx, options);
  });
}

async function seed(tx: Db, options: DemoSeedOptions): Promise<DemoLogin[]> {
  const now = options.now ?? nowSeconds();
  const ago = (minutes: number) => now - minutes * 60;

  await seedGroups(tx, now);
  const logins = await seedUsers(tx, options, now);
  await seedCustomGroupMembers(tx);
  await moveSequencesPastIds(tx, ['user_groups']);
  await seedChannels(tx, now);
  await seedRealm(tx, options.videoChatProvider, now);
  await seedProfiles(tx);
  await seedMessages(tx, ago);
  await seedOtherRecords(tx, now);
  await moveSequencesPastIds(tx, SEEDED_ID_TABLES);
  return logins;
}

async function seedGroups(tx: Db, now: number): Promise<void> {
  const nobody = SYSTEM_GROUP_IDS['role:nobody'];
  const admins = SYSTEM_GROUP_IDS['role:administrators'];
  // One statement, so each group may name role:nobody before its row is checked.
  const systemGroups = Object.entries(SYSTEM_GROUP_IDS);
  await tx.query(
    `INSERT INTO user_groups (id, name, description, is_system_group, can_manage_group_id, can_add_members_group_id,
       can_remove_members_group_id, created_at)
     SELECT id, name, description, true, $4, $4, $4, $5
     FROM unnest($1::integer[], $2::text[], $3::text[]) AS g (id, name, description)`,
    [systemGroups.map(([, id]) => id), systemGroups.map(([name]) => name), systemGroups.map(([name]) => systemGroupDescription(name)), nobody, now],
  );
  const chain = Object.values(SYSTEM_GROUP_IDS).filter((id) => id !== nobody);
  for (let i = 0; i + 1 < chain.length; i++) {
    await tx.query('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES ($1, $2)', [chain[i], chain[i + 1]]);
  }
  for (const group of CUSTOM_GROUPS) {
    await tx.query(
      `INSERT INTO user_groups (id, name, description, can_manage_group_id, can_add_members_group_id,
         can_remove_members_group_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $5, $6)`,
      [group.id, group.name, group.description, admins, nobody, now],
    );
  }
}

function systemGroupDescription(name: string): string {
  const role = name.slice('role:'.length);
  if (role === 'internet') return 'Everyone on the internet';
  if (role === 'everyone') return 'Everyone in this organization, including guests';
  if (role === 'nobody') return 'Nobody';
  if (role === 'fullmembers') return 'Members of this organization, not including new accounts and guests';
  return `${role[0]!.toUpperCase()}${role.slice(1)} of this organization`;
}

async function seedUsers(tx: Db, options: DemoSeedOptions, now: number): Promise<DemoLogin[]> {
  const logins: DemoLogin[] = [];
  for (const user of USERS) {
    const { apiKey, stored } = await newCredentials(options.secret, user.bot ? null : options.password);
    await insertUser(tx, {
      id: user.id,
      email: user.email,
      fullName: user.fullName,
      role: user.role,
      ...(user.bot ? { bot: user.bot } : {}),
      timezone: user.timezone,
      dateJoined: now - 30 * 86400,
      videocallToken: user.videocall ? randomBytes(24).toString('base64url') : null,
      canChangeUserEmails: user.id === USER.ada,
      credentials: stored,
    });
    if (user.bot?.type !== 'system') {
      logins.push({ userId: user.id, email: user.email, fullName: user.fullName, role: user.role, isBot: user.bot !== undefined, apiKey });
    }
  }
  return logins;
}

async function seedCustomGroupMembers(tx: Db): Promise<void> {
  for (const group of CUSTOM_GROUPS) {
    for (const userId of group.members) {
      await tx.query('INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2)', [group.id, userId]);
    }
    for (const subgroupId of group.subgroups) {
      await tx.query('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES ($1, $2)', [group.id, subgroupId]);
    }
  }
}

async function seedChannels(tx: Db, now: number): Promise<void> {
  for (const folder of FOLDERS) {
    await tx.query(
      `INSERT INTO channel_folders (id, name, description, rendered_description, is_archived, sort_order, creator_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $1, $6, $7)`,
      [folder.id, folder.name, folder.description, `<p>${folder.description}</p>`, folder.isArchived, USER.ada, now],
    );
  }
  // Engineering is administered by Ben plus the backend group: an anonymous group setting.
  const engineeringAdmins = await storeGroupSettingValue(tx, { direct_members: [USER.ben], direct_subgroups: [GROUP.backend] });
  for (const channel of CHANNELS) {
    await insertChannel(tx, {
      id: channel.id,
      name: channel.name,
      description: channel.description,
      renderedDescription: RENDERED_DESCRIPTIONS[channel.id]!,
      isPrivate: 'isPrivate' in channel && channel.isPrivate,
      isWebPublic: 'isWebPublic' in channel && channel.isWebPublic,
      isDefault: 'isDefault' in channel && channel.isDefault,
      isArchived: 'isArchived' in channel && channel.isArchived,
      folderId: 'folderId' in channel ? channel.folderId : null,
      creatorId: USER.ada,
      groups: {
        canAddSubscribers: GROUP['role:nobody'],
        canRemoveSubscribers: GROUP['role:administrators'],
        canAdminister: channel.id === CHANNEL.engineering ? engineeringAdmins : GROUP['role:nobody'],
        canDeleteAnyMessage: GROUP['role:nobody'],
        canDeleteOwnMessage: GROUP['role:everyone'],
        canSendMessage: channel.id === CHANNEL.announcements ? GROUP['role:administrators'] : GROUP['role:everyone'],
        canCreateTopic: GROUP['role:everyone'],
      },
    });
    for (const userId of channel.subscribers) await subscribe(tx, userId, channel.id, now);
  }
}

async function seedRealm(tx: Db, videoChatProvider: string | null, now: number): Promise<void> {
  await tx.query(
    `INSERT INTO realm (id, name, string_id, description, date_created, enable_spectator_access,
       moderation_request_channel_id, empty_topic_display_name, video_chat_provider,
       can_create_web_public_channel_group_id, can_invite_users_group_id, can_add_subscribers_group_id,
       can_manage_all_groups_id, can_delete_any_message_group_id, can_delete_own_message_group_id)
     VALUES (1, $1, $2, $3, $4, true, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      ORGANIZATION.name,
      ORGANIZATION.stringId,
      ORGANIZATION.description,
      now - 365 * 86400,
      ORGANIZATION.moderationChannelId,
      ORGANIZATION.emptyTopicDisplayName,
      videoChatProvider,
      GROUP['role:owners'],
      GROUP['role:members'],
      GROUP['role:members'],
      GROUP['role:owners'],
      GROUP['role:administrators'],
      GROUP['role:everyone'],
    ],
  );
  await tx.query('INSERT INTO realm_domains (domain, allow_subdomains) VALUES ($1, false)', [ORGANIZATION.domain]);
}

async function seedProfiles(tx: Db): Promise<void> {
  for (const [index, field] of PROFILE_FIELDS.entries()) {
    await tx.query(
      `INSERT INTO custom_profile_fields (id, name, hint, field_type, display_in_profile_summary, sort_order)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [field.id, field.name, field.hint, field.type, index < 2, index + 1],
    );
  }
  for (const value of PROFILE_VALUES) {
    await tx.query('INSERT INTO custom_profile_values (user_id, field_id, value, rendered_value) VALUES ($1, $2, $3, $4)', [
      value.userId,
      value.fieldId,
      value.value,
      value.rendered,
    ]);
  }
  await tx.query('INSERT INTO custom_emoji (id, name, author_id, file_name) VALUES ($1, $2, $3, $4)', [
    CUSTOM_EMOJI.id,
    CUSTOM_EMOJI.name,
    CUSTOM_EMOJI.authorId,
    CUSTOM_EMOJI.fileName,
  ]);
}

async function seedMessages(tx: Db, ago: (minutes: number) => number): Promise<void> {
  const { deployDone, thanks, flakyTest, lunch, review } = MESSAGES;
  const deploys = { channelId: CHANNEL.engineering, topic: 'deploys' };
  await insertMessage(tx, {
    id: deployDone.id,
    senderId: deployDone.senderId,
    to: deploys,
    content: deployDone.original.content,
    renderedContent: deployDone.original.rendered,
    client: 'website',
    sentAt: ago(deployDone.minutesAgo),
  });
  await applyMessageEdit(tx, deployDone.id, {
    userId: deployDone.senderId,
    at: ago(deployDone.editedMinutesAgo),
    content: { content: deployDone.edited.content, renderedContent: deployDone.edited.rendered },
  });
  for (const userId of [USER.ben, USER.chen]) {
    await addReaction(tx, { messageId: deployDone.id, userId, ...TADA, at: ago(deployDone.editedMinutesAgo - 1) });
    await setFlag(tx, userId, [deployDone.id], 'read', true);
  }
  await insertMessage(tx, { id: thanks.id, senderId: thanks.senderId, to: deploys, content: thanks.content, renderedContent: thanks.rendered, client: 'website', sentAt: ago(thanks.minutesAgo) });
  await insertMessage(tx, {
    id: flakyTest.id,
    senderId: flakyTest.senderId,
    to: { channelId: CHANNEL.engineering, topic: flakyTest.fromTopic },
    content: flakyTest.content,
    renderedContent: flakyTest.rendered,
    client: 'website',
    sentAt: ago(flakyTest.minutesAgo),
  });
  await applyMessageEdit(tx, flakyTest.id, { userId: flakyTest.senderId, at: ago(flakyTest.movedMinutesAgo), topic: deploys.topic });
  await insertMessage(tx, { id: lunch.id, senderId: lunch.senderId, to: { channelId: CHANNEL.general, topic: '' }, content: lunch.content, renderedContent: lunch.rendered, client: 'mobile', sentAt: ago(lunch.minutesAgo) });
  await insertMessage(tx, { id: review.id, senderId: review.senderId, to: { directTo: [USER.dana] }, content: review.content, renderedContent: review.rendered, client: 'website', sentAt: ago(review.minutesAgo) });
}

async function seedOtherRecords(tx: Db, now: number): Promise<void> {
  await tx.query(
    `INSERT INTO linkifiers (id, pattern, url_template, example_input, reverse_template, sort_order)
     VALUES ($1, $2, $3, $4, $5, 1)`,
    [LINKIFIER.id, LINKIFIER.pattern, LINKIFIER.urlTemplate, LINKIFIER.exampleInput, LINKIFIER.reverseTemplate],
  );
  await tx.query('INSERT INTO code_playgrounds (id, name, pygments_language, url_template) VALUES ($1, $2, $3, $4)', [
    PLAYGROUND.id,
    PLAYGROUND.name,
    PLAYGROUND.pygmentsLanguage,
    PLAYGROUND.urlTemplate,
  ]);
  const engineeringRecipient = await channelRecipientId(tx, CHANNEL.engineering);
  await tx.query(
    `INSERT INTO scheduled_messages (id, sender_id, type, recipient_id, channel_id, topic, content, rendered_content,
       scheduled_at, created_at)
     VALUES ($1, $2, 'stream', $3, $4, $5, $6, $7, $8, $9)`,
    [
      SCHEDULED_MESSAGE.id,
      SCHEDULED_MESSAGE.senderId,
      engineeringRecipient,
      CHANNEL.engineering,
      SCHEDULED_MESSAGE.topic,
      SCHEDULED_MESSAGE.content,
      SCHEDULED_MESSAGE.rendered,
      now + SCHEDULED_MESSAGE.hoursAhead * 3600,
      now,
    ],
  );
  await insertReminder(tx, {
    id: REMINDER.id,
    userId: REMINDER.userId,
    messageId: REMINDER.messageId,
    scheduledAt: now + REMINDER.hoursAhead * 3600,
    note: REMINDER.note,
  });
  await tx.query(
    `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, updated_at)
     VALUES ($1, $2, $3, $4, 'unicode_emoji', $5)`,
    [STATUS.userId, STATUS.statusText, STATUS.emojiName, STATUS.emojiCode, now],
  );
  await recordPresence(tx, USER.dana, 'website', 'active', now - 60);
  await recordPresence(tx, USER.ben, 'website', 'idle', now - 600);
}

async function moveSequencesPastIds(tx: Db, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence($1, 'id'), COALESCE((SELECT max(id) FROM ${table}), 0) + 1, false)`,
      [table],
    );
  }
}
