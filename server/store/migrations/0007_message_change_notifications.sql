-- Change notifications for the message views PGlite's session keeps
-- (server/store/cache.ts, docs/decisions/0021): what GET /messages/{id} reads
-- of a message that is the same for every viewer (its row, edit history,
-- reactions, submessages, direct-message participants, channel, sender).
-- The users trigger of 0005 already covers the sender's and participants'
-- columns; the caller's flags and subscription are read on every request and
-- need nothing here.
--
-- A message view is kept only for a message that exists, and ids are never
-- reused, so inserting a message or a channel cannot change a kept view; every
-- other change of a column the view reads does. As in 0005, the trigger's WHEN
-- keeps PostgreSQL sessions (which never set the setting) from calling anything.
CREATE TRIGGER messages_notify_change AFTER DELETE OR TRUNCATE OR UPDATE OF
  id, sender_id, type, recipient_id, channel_id, topic, content, rendered_content, client, sent_at, is_me_message
  ON messages FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER message_edits_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON message_edits
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER reactions_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON reactions
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER submessages_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON submessages
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER recipient_members_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON recipient_members
  FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
CREATE TRIGGER channels_notify_change AFTER DELETE OR TRUNCATE OR UPDATE OF
  id, name, is_private, is_web_public, history_public_to_subscribers
  ON channels FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
