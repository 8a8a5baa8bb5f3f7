// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

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
  return {};
};
