/**
 * What the API description gives for each of its 22 operations, written out
 * by hand so the document is checked against the source, not against itself.
 */

type Row = [name: string, location: 'path' | 'query' | 'body', required: boolean];

export interface SeedOperation {
  operationId: string;
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  parameters: Row[];
  /** Every feature level the versioning notes name for this operation. */
  levels: number[];
  /** Places the source calls deprecated: `operation`, `param:<name>` or `response:<field>`. */
  deprecated: string[];
}

const opt = false;
const req = true;

export const seedOperations: SeedOperation[] = [
  {
    operationId: 'update-stream',
    method: 'patch',
    path: '/streams/{stream_id}',
    parameters: [
      ['stream_id', 'path', req],
      ['description', 'body', opt],
      ['new_name', 'body', opt],
      ['is_private', 'body', opt],
      ['is_web_public', 'body', opt],
      ['history_public_to_subscribers', 'body', opt],
      ['is_default_stream', 'body', opt],
      ['message_retention_days', 'body', opt],
      ['is_archived', 'body', opt],
      ['folder_id', 'body', opt],
      ['topics_policy', 'body', opt],
      ['can_add_subscribers_group', 'body', opt],
      ['can_remove_subscribers_group', 'body', opt],
      ['can_administer_channel_group', 'body', opt],
      ['can_delete_any_message_group', 'body', opt],
      ['can_delete_own_message_group', 'body', opt],
    ],
    levels: [17, 91, 64, 98, 136, 161, 197, 320, 200, 303, 325, 333, 342, 349, 362, 388, 389, 392, 404, 407],
    deprecated: [],
  },
  {
    operationId: 'update-scheduled-message',
    method: 'patch',
    path: '/scheduled_messages/{scheduled_message_id}',
    parameters: [
      ['scheduled_message_id', 'path', req],
      ['type', 'body', opt],
      ['to', 'body', opt],
      ['content', 'body', opt],
      ['topic', 'body', opt],
      ['scheduled_delivery_timestamp', 'body', opt],
    ],
    levels: [184, 248, 334, 370],
    deprecated: [],
  },
  {
    operationId: 'update-presence',
    method: 'post',
    path: '/users/me/presence',
    parameters: [
      ['status', 'body', req],
      ['last_update_id', 'body', opt],
      ['history_limit_days', 'body', opt],
      ['ping_only', 'body', opt],
      ['new_user_input', 'body', opt],
      ['slim_presence', 'body', opt],
    ],
    levels: [228, 263, 288],
    deprecated: ['param:slim_presence'],
  },
  {
    operationId: 'update-channel-folder',
    method: 'patch',
    path: '/channel_folders/{channel_folder_id}',
    parameters: [
      ['channel_folder_id', 'path', req],
      ['name', 'body', opt],
      ['description', 'body', opt],
      ['is_archived', 'body', opt],
    ],
    levels: [],
    deprecated: [],
  },
  {
    operationId: 'get-message',
    method: 'get',
    path: '/messages/{message_id}',
    parameters: [
      ['message_id', 'path', req],
      ['apply_markdown', 'query', opt],
      ['allow_empty_topic_name', 'query', opt],
    ],
    levels: [120, 334, 365, 284, 328, 2, 327, 482, 224],
    deprecated: ['response:raw_content'],
  },
  {
    operationId: 'send-invites',
    method: 'post',
    path: '/invites',
    parameters: [
      ['invitee_emails', 'body', req],
      ['invite_expires_in_minutes', 'body', opt],
      ['invite_as', 'body', opt],
      ['stream_ids', 'body', req],
      ['group_ids', 'body', opt],
      ['include_realm_default_subscriptions', 'body', opt],
      ['notify_referrer_on_join', 'body', opt],
      ['welcome_message_custom_text', 'body', opt],
    ],
    levels: [96, 117, 126, 61, 180, 261, 267, 322, 342, 416],
    deprecated: [],
  },
  {
    operationId: 'fetch-api-key',
    method: 'post',
    path: '/fetch_api_key',
    parameters: [
      ['username', 'body', req],
      ['password', 'body', req],
    ],
    levels: [171],
    deprecated: [],
  },
  {
    operationId: 'update-user',
    method: 'patch',
    path: '/users/{user_id}',
    parameters: [
      ['user_id', 'path', req],
      ['full_name', 'body', opt],
      ['role', 'body', opt],
      ['profile_data', 'body', opt],
      ['new_email', 'body', opt],
    ],
    levels: [8, 60, 106, 285],
    deprecated: [],
  },
  {
    operationId: 'update-status',
    method: 'post',
    path: '/users/me/status',
    parameters: [
      ['status_text', 'body', opt],
      ['emoji_name', 'body', opt],
      ['emoji_code', 'body', opt],
      ['reaction_type', 'body', opt],
      ['away', 'body', opt],
    ],
    levels: [86, 148],
    deprecated: ['param:away'],
  },
  {
    operationId: 'update-message-flags-for-narrow',
    method: 'post',
    path: '/messages/flags/narrow',
    parameters: [
      ['anchor', 'body', req],
      ['include_anchor', 'body', opt],
      ['num_before', 'body', req],
      ['num_after', 'body', req],
      ['narrow', 'body', req],
      ['op', 'body', req],
      ['flag', 'body', req],
    ],
    levels: [155, 355],
    deprecated: [],
  },
  {
    operationId: 'report-message',
    method: 'post',
    path: '/messages/{message_id}/report',
    parameters: [
      ['message_id', 'path', req],
      ['report_type', 'body', req],
      ['description', 'body', opt],
    ],
    levels: [331, 382, 435],
    deprecated: [],
  },
  {
    operationId: 'get-message-history',
    method: 'get',
    path: '/messages/{message_id}/history',
    parameters: [
      ['message_id', 'path', req],
      ['allow_empty_topic_name', 'query', opt],
    ],
    levels: [1, 118, 334],
    deprecated: [],
  },
  {
    operationId: 'mark-topic-as-read',
    method: 'post',
    path: '/mark_topic_as_read',
    parameters: [
      ['stream_id', 'body', req],
      ['topic_name', 'body', req],
    ],
    levels: [334],
    deprecated: ['operation'],
  },
  {
    operationId: 'remove-reaction',
    method: 'delete',
    path: '/messages/{message_id}/reactions',
    parameters: [
      ['message_id', 'path', req],
      ['emoji_name', 'body', opt],
      ['emoji_code', 'body', opt],
      ['reaction_type', 'body', opt],
    ],
    levels: [2, 193],
    deprecated: [],
  },
  {
    operationId: 'add-code-playground',
    method: 'post',
    path: '/realm/playgrounds',
    parameters: [
      ['name', 'body', req],
      ['pygments_language', 'body', req],
      ['url_template', 'body', req],
    ],
    levels: [49, 57, 196],
    deprecated: [],
  },
  {
    operationId: 'update-user-group-subgroups',
    method: 'post',
    path: '/user_groups/{user_group_id}/subgroups',
    parameters: [
      ['user_group_id', 'path', req],
      ['add', 'body', opt],
      ['delete', 'body', opt],
    ],
    levels: [127, 391, 496],
    deprecated: [],
  },
  {
    operationId: 'update-realm-domain',
    method: 'patch',
    path: '/realm/domains/{domain}',
    parameters: [
      ['domain', 'path', req],
      ['allow_subdomains', 'body', req],
    ],
    levels: [143],
    deprecated: [],
  },
  {
    operationId: 'create-message-reminder',
    method: 'post',
    path: '/reminders',
    parameters: [
      ['message_id', 'body', opt],
      ['scheduled_delivery_timestamp', 'body', opt],
      ['note', 'body', opt],
    ],
    levels: [381, 415],
    deprecated: [],
  },
  {
    operationId: 'get-own-user',
    method: 'get',
    path: '/users/me',
    parameters: [],
    levels: [10, 59, 163, 363, 433, 475],
    deprecated: ['response:max_message_id'],
  },
  {
    operationId: 'get-linkifiers',
    method: 'get',
    path: '/realm/linkifiers',
    parameters: [],
    levels: [54, 176, 471],
    deprecated: [],
  },
  {
    operationId: 'create-video-call',
    method: 'post',
    path: '/calls/videocall/create',
    parameters: [],
    levels: [493],
    deprecated: [],
  },
  {
    operationId: 'upload-file',
    method: 'post',
    path: '/user_uploads',
    parameters: [['file', 'body', req]],
    levels: [272, 285, 296],
    deprecated: ['response:uri'],
  },
];
