/** Row shapes of the tables in migrations/, column for column. Times are UNIX seconds. */

export type Role = 100 | 200 | 300 | 400 | 600;
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';
export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';
export type MessageType = 'stream' | 'private';
export type MessageFlag =
  | 'read'
  | 'starred'
  | 'collapsed'
  | 'mentioned'
  | 'stream_wildcard_mentioned'
  | 'topic_wildcard_mentioned'
  | 'has_alert_word'
  | 'historical';
export type CustomProfileFieldType =
  | 'short_text'
  | 'long_text'
  | 'choice'
  | 'date'
  | 'url'
  | 'users'
  | 'external_account'
  | 'pronouns';

export interface RealmRow {
  id: 1;
  name: string;
  string_id: string;
  description: string;
  date_created: number;
  enable_spectator_access: boolean;
  moderation_request_channel_id: number | null;
  allow_edit_history: boolean;
  empty_topic_display_name: string;
  topics_policy: 'allow_empty_topic' | 'disable_empty_topic';
  /** -1: unlimited. */
  message_retention_days: number;
  max_stream_name_length: number;
  max_stream_description_length: number;
  max_topic_length: number;
  max_message_length: number;
  max_channel_folder_name_length: number;
  max_channel_folder_description_length: number;
  max_file_upload_size_mib: number;
  server_report_message_types: { key: string; name: string }[];
  invite_expiry_default_minutes: number;
  video_chat_provider: string | null;
  can_create_web_public_channel_group_id: number;
  can_invite_users_group_id: number;
  can_add_subscribers_group_id: number;
  can_manage_all_groups_id: number;
  can_delete_any_message_group_id: number;
  can_delete_own_message_group_id: number;
}

/** A user without its secrets (password and API key columns). */
export interface UserRow {
  id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: Role;
  is_bot: boolean;
  bot_type: string | null;
  bot_owner_id: number | null;
  is_active: boolean;
  is_imported_stub: boolean;
  timezone: string;
  avatar_version: number;
  date_joined: number;
  awaiting_first_login: boolean;
  last_login_at: number | null;
  presence_enabled: boolean;
  can_change_user_emails: boolean;
  has_videocall_token: boolean;
}

export interface UserGroupRow {
  id: number;
  /** null: an anonymous group holding one group setting's value. */
  name: string | null;
  description: string;
  is_system_group: boolean;
  deactivated: boolean;
  can_manage_group_id: number | null;
  can_add_members_group_id: number | null;
  can_remove_members_group_id: number | null;
  created_at: number;
}

export interface ChannelFolderRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  is_archived: boolean;
  sort_order: number;
  creator_id: number | null;
  created_at: number;
}

export interface ChannelRow {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  is_private: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  is_default: boolean;
  /** null: the organization's setting; -1: unlimited. */
  message_retention_days: number | null;
  is_archived: boolean;
  folder_id: number | null;
  topics_policy: TopicsPolicy;
  creator_id: number | null;
  created_at: number;
  can_add_subscribers_group_id: number;
  can_remove_subscribers_group_id: number;
  can_administer_channel_group_id: number;
  can_delete_any_message_group_id: number;
  can_delete_own_message_group_id: number;
  can_send_message_group_id: number;
  can_create_topic_group_id: number;
}

export interface MessageRow {
  id: number;
  sender_id: number;
  type: MessageType;
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  client: string;
  sent_at: number;
  last_edit_at: number | null;
  last_moved_at: number | null;
  is_me_message: boolean;
}

export interface ReactionRow {
  id: number;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  created_at: number;
}

export interface SubmessageRow {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface MessageEditRow {
  id: number;
  message_id: number;
  user_id: number | null;
  edited_at: number;
  prev_content: string | null;
  prev_rendered_content: string | null;
  new_content: string | null;
  new_rendered_content: string | null;
  prev_channel_id: number | null;
  new_channel_id: number | null;
  prev_topic: string | null;
  new_topic: string | null;
}

export interface ScheduledMessageRow {
  id: number;
  sender_id: number;
  type: MessageType;
  recipient_id: number;
  channel_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_at: number;
  created_at: number;
  delivered: boolean;
  delivered_message_id: number | null;
  failed: boolean;
  failure_message: string | null;
}

export interface ReminderRow {
  id: number;
  user_id: number;
  message_id: number;
  scheduled_at: number;
  note: string;
  created_at: number;
  claimed_by: string | null;
  claimed_at: number | null;
  delivered_at: number | null;
  delivered_message_id: number | null;
}

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  updated_at: number;
}

export interface PresenceRow {
  user_id: number;
  client: string;
  last_active_at: number | null;
  last_connected_at: number;
  update_id: number;
}

export interface CustomProfileFieldRow {
  id: number;
  name: string;
  hint: string;
  field_type: CustomProfileFieldType;
  field_data: Record<string, unknown>;
  display_in_profile_summary: boolean;
  required: boolean;
  sort_order: number;
}

export interface CustomProfileValueRow {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export interface CustomEmojiRow {
  id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  deactivated: boolean;
}

export interface RealmDomainRow {
  domain: string;
  allow_subdomains: boolean;
}

export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string[];
  sort_order: number;
}

export interface CodePlaygroundRow {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export interface InvitationRow {
  id: number;
  inviter_id: number;
  email: string;
  invite_as: Role;
  created_at: number;
  expires_at: number | null;
  include_realm_default_subscriptions: boolean;
  notify_referrer_on_join: boolean;
  welcome_message_custom_text: string | null;
  accepted_user_id: number | null;
  revoked: boolean;
}

export interface UploadRow {
  id: number;
  owner_id: number;
  path_id: string;
  filename: string;
  content_type: string;
  size: number;
  created_at: number;
}

export interface SubscriptionRow {
  user_id: number;
  channel_id: number;
  active: boolean;
  is_muted: boolean;
  pin_to_top: boolean;
  color: string;
  created_at: number;
}
