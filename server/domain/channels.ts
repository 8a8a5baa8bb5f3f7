/**
 * Rules for changing a channel's settings, shared by the operations that
 * touch channels: names, privacy combinations and group-based permissions.
 */
import { ApiError } from '../errors.js';
import { channelNameTaken } from '../store/channel-updates.js';
import type { Db } from '../store/db.js';
import {
  getGroup,
  groupSettingValue,
  isUserInGroup,
  sameGroupSettingValue,
  type ChannelGroupSetting,
  type GroupSettingValue,
} from '../store/groups.js';
import type { ChannelRow, RealmRow, UserRow } from '../store/rows.js';
import { getUsersByIds } from '../store/users.js';

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/**
 * Settings whose change needs access to the channel's content (for a
 * private channel: a subscription); the others need only its metadata.
 */
const NEEDS_CONTENT_ACCESS: ReadonlySet<ChannelGroupSetting> = new Set([
  'can_add_subscribers_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
]);

export function settingNeedsContentAccess(setting: ChannelGroupSetting): boolean {
  return NEEDS_CONTENT_ACCESS.has(setting);
}

/** Trimmed, non-empty, within the organization's limit, free of control characters, and not another channel's. */
export async function checkChannelName(db: Db, realm: Pick<RealmRow, 'max_stream_name_length'>, value: string, channelId: number): Promise<string> {
  const name = value.trim();
  if (name === '') throw new ApiError('BAD_REQUEST', "Channel name can't be empty");
  if ([...name].length > realm.max_stream_name_length) {
    throw new ApiError('BAD_REQUEST', `Channel name too long (limit: ${realm.max_stream_name_length} characters)`);
  }
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ApiError('BAD_REQUEST', 'Channel name contains invalid characters');
  if (await channelNameTaken(db, name, channelId)) throw new ApiError('BAD_REQUEST', `Channel '${name}' already exists`);
  return name;
}

export function checkChannelDescription(realm: Pick<RealmRow, 'max_stream_description_length'>, description: string): void {
  if ([...description].length > realm.max_stream_description_length) {
    throw new ApiError('BAD_REQUEST', `Channel description too long (limit: ${realm.max_stream_description_length} characters)`);
  }
}

export interface Privacy {
  is_private: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
}

/**
 * The privacy a request leads to. Making a channel web-public makes it
 * public and the reverse; a public channel always keeps its history public;
 * hiding history needs a private channel in which everyone may create topics.
 */
export async function resolvePrivacy(
  db: Db,
  channel: ChannelRow,
  request: Partial<Privacy>,
): Promise<Privacy> {
  if (request.is_private === true && request.is_web_public === true) {
    throw new ApiError('BAD_REQUEST', 'A channel cannot be both private and web-public');
  }
  const isPrivate = request.is_private ?? (request.is_web_public === true ? false : channel.is_private);
  const isWebPublic = request.is_web_public ?? (request.is_private === true ? false : channel.is_web_public);
  let history = request.history_public_to_subscribers ?? (isPrivate ? channel.history_public_to_subscribers : true);
  if (request.history_public_to_subscribers === false) {
    if (!isPrivate || isWebPublic) throw new ApiError('BAD_REQUEST', 'A public channel must keep its history public to subscribers');
    const everyone = await getGroup(db, channel.can_create_topic_group_id);
    if (!(everyone?.is_system_group && everyone.name === 'role:everyone')) {
      throw new ApiError(
        'BAD_REQUEST',
        'History can be hidden from subscribers only when the channel lets everyone create topics (can_create_topic_group is role:everyone)',
      );
    }
    history = false;
  }
  return { is_private: isPrivate, is_web_public: isWebPublic, history_public_to_subscribers: history };
}

/** The server setting, the organization setting and the caller's permission that making a channel web-public needs. */
export async function checkCanMakeWebPublic(
  db: Db,
  user: Pick<UserRow, 'id'>,
  realm: Pick<RealmRow, 'enable_spectator_access' | 'can_create_web_public_channel_group_id'>,
  serverEnabled: boolean,
): Promise<void> {
  if (!serverEnabled) throw new ApiError('BAD_REQUEST', 'Web-public channels are not enabled on this server');
  if (!realm.enable_spectator_access) throw new ApiError('BAD_REQUEST', 'Web-public channels are not enabled in this organization');
  if (!(await isUserInGroup(db, user.id, realm.can_create_web_public_channel_group_id))) {
    throw new ApiError('BAD_REQUEST', 'Insufficient permission to make a channel web-public');
  }
}

async function checkGroupUsable(db: Db, groupId: number): Promise<void> {
  const group = await getGroup(db, groupId);
  // Anonymous groups are values of other settings, and role:internet stands for logged-out visitors.
  if (!group || group.name === null || group.deactivated || group.name === 'role:internet') {
    throw new ApiError('BAD_REQUEST', `Invalid user group ID: ${groupId}`);
  }
}

/**
 * Checks the ids a value names and puts it in canonical form: an anonymous
 * value that is exactly one group is that group.
 */
export async function normalizeGroupSettingValue(db: Db, value: GroupSettingValue): Promise<GroupSettingValue> {
  if (typeof value === 'number') {
    await checkGroupUsable(db, value);
    return value;
  }
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  const users = await getUsersByIds(db, members);
  const missing = members.find((id) => !users.some((user) => user.id === id && user.is_active));
  if (missing !== undefined) throw new ApiError('BAD_REQUEST', `Invalid user ID: ${missing}`);
  for (const id of subgroups) await checkGroupUsable(db, id);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Refuses the change when `old` is given and the setting (read within the caller's transaction) holds something else. */
export async function checkExpectedGroupSetting(db: Db, currentGroupId: number, change: GroupSettingChange): Promise<void> {
  if (change.old === undefined) return;
  const current = await groupSettingValue(db, currentGroupId);
  const old = typeof change.old === 'number' ? change.old : { direct_members: change.old.direct_members, direct_subgroups: change.old.direct_subgroups };
  const oneGroup = typeof old !== 'number' && old.direct_members.length === 0 && new Set(old.direct_subgroups).size === 1;
  if (!sameGroupSettingValue(oneGroup ? old.direct_subgroups[0]! : old, current)) {
    throw new ApiError('BAD_REQUEST', "'old' value does not match the expected value");
  }
}
