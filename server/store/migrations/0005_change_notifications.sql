-- Change notifications for a session that owns its database alone (the
-- embedded PGlite, docs/decisions/0021): when the session setting
-- teamchat.notify_changes is 'on', a statement changing one of these tables
-- sends NOTIFY teamchat_changes with the table's name. PostgreSQL delivers
-- a notification only when its transaction commits, in the same answer as
-- the COMMIT (or the auto-committed statement), and never after a rollback;
-- PostgreSQL sessions do not set the setting, so there nothing is sent.
--
-- cache_version stands for every table of 0003 and 0004 (the shared
-- caches); users, user_messages and custom_profile_values for what
-- authentication and the own-user view read (server/auth/credentials.ts).
-- Columns of users that neither reads (the password hash, the sealed key,
-- last_user_input_at, written by presence updates) are left out.
-- The condition is each trigger's WHEN, so elsewhere no function is even called.
CREATE FUNCTION notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('teamchat_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER cache_version_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON cache_version
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER users_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF
  id, email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, is_active, is_imported_stub, timezone,
  avatar_version, date_joined, awaiting_first_login, last_login_at, presence_enabled, can_change_user_emails,
  videocall_token, api_key_hash
  ON users FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
-- The own-user view reads the caller's highest message id: flag changes do not move it.
CREATE TRIGGER user_messages_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF user_id, message_id
  ON user_messages FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER custom_profile_values_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_profile_values
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
