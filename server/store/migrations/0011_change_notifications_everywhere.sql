-- Change notifications from every session (server/docs/change-feed.md).
-- Until now the triggers of 0005 and 0007 notified only in a session that set
-- teamchat.notify_changes to 'on', which only PGlite's did. A PostgreSQL
-- server now follows the changes too, and on PostgreSQL other processes
-- change the database as well (other workers, scripts, psql): their changes
-- must be reported whether or not they know of the setting. So a session
-- notifies unless it sets teamchat.notify_changes to 'off' itself.

DROP TRIGGER cache_version_notify_change ON cache_version;
CREATE TRIGGER cache_version_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cache_version
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER users_notify_change ON users;
CREATE TRIGGER users_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF
  id, email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, is_active, is_imported_stub, timezone,
  avatar_version, date_joined, awaiting_first_login, last_login_at, presence_enabled, can_change_user_emails,
  videocall_token, api_key_hash, own_profile
  ON users FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER user_messages_notify_change ON user_messages;
CREATE TRIGGER user_messages_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF user_id, message_id
  ON user_messages FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER custom_profile_values_notify_change ON custom_profile_values;
CREATE TRIGGER custom_profile_values_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_profile_values
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER messages_notify_change ON messages;
CREATE TRIGGER messages_notify_change AFTER DELETE OR TRUNCATE OR UPDATE OF
  id, sender_id, type, recipient_id, channel_id, topic, content, rendered_content, client, sent_at, is_me_message
  ON messages FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER message_edits_notify_change ON message_edits;
CREATE TRIGGER message_edits_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON message_edits
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER reactions_notify_change ON reactions;
CREATE TRIGGER reactions_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reactions
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER submessages_notify_change ON submessages;
CREATE TRIGGER submessages_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON submessages
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER recipient_members_notify_change ON recipient_members;
CREATE TRIGGER recipient_members_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recipient_members
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
DROP TRIGGER channels_notify_change ON channels;
CREATE TRIGGER channels_notify_change AFTER DELETE OR TRUNCATE OR UPDATE OF
  id, name, is_private, is_web_public, history_public_to_subscribers
  ON channels FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) IS DISTINCT FROM 'off') EXECUTE FUNCTION notify_change();
