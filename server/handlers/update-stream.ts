// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import {
  canAccessChannelContent,
  canAccessChannelMetadata,
  isChannelAdministrator,
} from '../domain/access.js';
import {
  checkCanMakeWebPublic,
  checkChannelDescription,
  checkChannelName,
  checkExpectedGroupSetting,
  normalizeGroupSettingValue,
  resolvePrivacy,
  settingNeedsContentAccess,
  type GroupSettingChange,
} from '../domain/channels.js';
import { renderMarkdown } from '../domain/markdown.js';
import { isAdmin, requireAdmin } from '../domain/roles.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { channelHasNamedTopics, lockChannel, updateChannelColumns, type ChannelColumnChanges } from '../store/channel-updates.js';
import { getChannelFolder, isSubscribed } from '../store/channels.js';
import { setChannelGroupSetting, type ChannelGroupSetting, type GroupSettingValue } from '../store/groups.js';
import { getRealm, listLinkifiers } from '../store/realm.js';

/**
 * PATCH /streams/{stream_id}: Update a channel
 *
 * Parameters:
 * - `stream_id` (integer, path, required)
 * - `description` (string, body, optional)
 * - `new_name` (string, body, optional)
 * - `is_private` (boolean, body, optional)
 * - `is_web_public` (boolean, body, optional)
 * - `history_public_to_subscribers` (boolean, body, optional)
 * - `is_default_stream` (boolean, body, optional)
 * - `message_retention_days` (integer | string, body, optional, JSON-encoded)
 * - `is_archived` (boolean, body, optional)
 * - `folder_id` (integer | null, body, optional, JSON-encoded)
 * - `topics_policy` (TopicsPolicy, body, optional)
 * - `can_add_subscribers_group` (GroupSettingValue, body, optional, JSON-encoded)
 * - `can_remove_subscribers_group` (GroupSettingValue, body, optional, JSON-encoded)
 * - `can_administer_channel_group` (GroupSettingValue, body, optional, JSON-encoded)
 * - `can_delete_any_message_group` (GroupSettingValue, body, optional, JSON-encoded)
 * - `can_delete_own_message_group` (GroupSettingValue, body, optional, JSON-encoded)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateStream: Handlers['updateStream'] = async (params, ctx) => {
  const { db, config } = services(ctx.request);
  const user = ctx.user;
  await db.transaction(async (tx) => {
    const channel = await lockChannel(tx, params.stream_id);
    if (!channel || !(await canAccessChannelMetadata(tx, user, channel))) throw new ApiError('BAD_REQUEST', 'Invalid channel ID');
    const channelAdmin = await isChannelAdministrator(tx, user, channel);
    if (!isAdmin(user) && !channelAdmin) throw new ApiError('BAD_REQUEST', 'You do not have permission to administer this channel');
    const realm = (await getRealm(tx))!;
    const changes: ChannelColumnChanges = {};

    if (params.is_archived === true) {
      throw new ApiError('BAD_REQUEST', 'Channels can only be unarchived here; is_archived must be false');
    }
    if (params.is_archived === false && channel.is_archived) changes.is_archived = false;
    if (channel.is_archived && params.is_archived !== false) {
      const others = Object.keys(params).filter((name) => !ARCHIVED_EDITABLE.has(name));
      if (others.length > 0) {
        throw new ApiError('BAD_REQUEST', `An archived channel must be unarchived before changing ${others.join(', ')}`);
      }
    }

    if (params.new_name !== undefined) changes.name = await checkChannelName(tx, realm, params.new_name, channel.id);
    if (params.description !== undefined) {
      checkChannelDescription(realm, params.description);
      changes.description = params.description;
      changes.rendered_description = renderMarkdown(params.description, { linkifiers: await listLinkifiers(tx) });
    }

    const { is_private, is_web_public, history_public_to_subscribers } = params;
    if (is_private !== undefined || is_web_public !== undefined || history_public_to_subscribers !== undefined) {
      const privacy = await resolvePrivacy(tx, channel, { is_private, is_web_public, history_public_to_subscribers });
      if (privacy.is_web_public && !channel.is_web_public) await checkCanMakeWebPublic(tx, user, realm, config.webPublicStreamsEnabled);
      Object.assign(changes, privacy);
    }
    if (params.is_default_stream !== undefined) {
      requireAdmin(user, 'change default channels');
      changes.is_default = params.is_default_stream;
    }
    if ((changes.is_default ?? channel.is_default) && (changes.is_private ?? channel.is_private)) {
      throw new ApiError('BAD_REQUEST', 'A default channel cannot be private');
    }

    if (params.message_retention_days !== undefined) {
      requireAdmin(user, 'change message retention');
      changes.message_retention_days = retentionDays(params.message_retention_days);
    }
    if (params.folder_id !== undefined) {
      if (params.folder_id !== null && !(await getChannelFolder(tx, params.folder_id))) {
        throw new ApiError('BAD_REQUEST', 'Invalid channel folder ID');
      }
      changes.folder_id = params.folder_id;
    }
    if (params.topics_policy !== undefined) {
      if (params.topics_policy === 'empty_topic_only' && (await channelHasNamedTopics(tx, channel.id))) {
        throw new ApiError(
          'BAD_REQUEST',
          'All messages in the channel must be in the empty topic before the policy can be empty_topic_only',
        );
      }
      changes.topics_policy = params.topics_policy;
    }

    const groupChanges: [ChannelGroupSetting, GroupSettingValue][] = [];
    for (const setting of UPDATABLE_GROUP_SETTINGS) {
      const change: GroupSettingChange | undefined = params[setting];
      if (change === undefined) continue;
      // The seed's rule for organization administrators: a private channel's permissions only while subscribed.
      if (!channelAdmin && channel.is_private && !(await isSubscribed(tx, user.id, channel.id))) {
        throw new ApiError('BAD_REQUEST', 'You must be subscribed to this private channel to change its permission settings');
      }
      if (settingNeedsContentAccess(setting) && !(await canAccessChannelContent(tx, user, channel))) {
        throw new ApiError('BAD_REQUEST', `Changing ${setting} needs access to the channel's content`);
      }
      await checkExpectedGroupSetting(tx, channel[`${setting}_id`], change);
      groupChanges.push([setting, await normalizeGroupSettingValue(tx, change.new)]);
    }

    await updateChannelColumns(tx, channel.id, changes);
    for (const [setting, value] of groupChanges) await setChannelGroupSetting(tx, channel.id, setting, value);
  });
  return {};
};

// While a channel is archived only its privacy may change (feature level 362), unless the request unarchives it.
const ARCHIVED_EDITABLE = new Set(['stream_id', 'is_archived', 'is_private', 'is_web_public', 'history_public_to_subscribers']);

const UPDATABLE_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
] as const satisfies readonly ChannelGroupSetting[];

/** Stored form: null follows the organization, -1 keeps messages forever. */
function retentionDays(value: number | 'realm_default' | 'unlimited'): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  return value;
}
