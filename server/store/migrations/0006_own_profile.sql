-- The own-user view (GET /users/me) reads the caller's custom profile values
-- with its authenticating statement (server/auth/credentials.ts). Aggregating
-- them there (a join with the fields, a sort, JSON built per value) was about
-- half of that statement's time on PostgreSQL; so each user's row keeps them,
-- as the view reads them, maintained by the triggers below in the same
-- transaction as every change of the values or of the fields' type or order.
ALTER TABLE users ADD COLUMN own_profile json NOT NULL DEFAULT '[]';

-- A user's profile values in the fields' display order, as the own-user view reads them.
CREATE FUNCTION own_profile_of(target integer) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT COALESCE(json_agg(json_build_object('field_id', v.field_id, 'field_type', f.field_type, 'value', v.value,
    'rendered_value', v.rendered_value) ORDER BY f.sort_order, f.id), '[]')
  FROM custom_profile_values v JOIN custom_profile_fields f ON f.id = v.field_id
  WHERE v.user_id = target
$$;

-- Recomputes the given users' own_profile. The rows are locked first (in id
-- order) and read by a statement of its own: in READ COMMITTED each
-- statement of this function takes a new snapshot, so it sees every change
-- committed by a transaction that held one of these locks before us, and two
-- transactions changing one user's values cannot each leave out the other's.
-- (A transaction changing several users' values, one statement each, holds
-- their rows until it ends: such bulk changes should go in id order.)
CREATE FUNCTION refresh_own_profiles(targets integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users WHERE id = ANY (targets) ORDER BY id FOR NO KEY UPDATE;
  UPDATE users SET own_profile = own_profile_of(id) WHERE id = ANY (targets);
END
$$;

CREATE FUNCTION custom_profile_values_own_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM refresh_own_profiles(ARRAY(SELECT DISTINCT user_id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM refresh_own_profiles(ARRAY(SELECT user_id FROM new_rows UNION SELECT user_id FROM old_rows));
  ELSE
    PERFORM refresh_own_profiles(ARRAY(SELECT DISTINCT user_id FROM old_rows));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER custom_profile_values_own_profile_insert AFTER INSERT ON custom_profile_values
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_profile_values_own_profile();
CREATE TRIGGER custom_profile_values_own_profile_update AFTER UPDATE ON custom_profile_values
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_profile_values_own_profile();
CREATE TRIGGER custom_profile_values_own_profile_delete AFTER DELETE ON custom_profile_values
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_profile_values_own_profile();

CREATE FUNCTION custom_profile_values_own_profile_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET own_profile = '[]' WHERE own_profile::text <> '[]';
  RETURN NULL;
END
$$;
CREATE TRIGGER custom_profile_values_own_profile_truncate AFTER TRUNCATE ON custom_profile_values
  FOR EACH STATEMENT EXECUTE FUNCTION custom_profile_values_own_profile_truncate();

-- A field's type or display order shows in the values of every user who has
-- one for it. Removed fields remove their values (ON DELETE CASCADE), which
-- the triggers above see; new fields have no values yet.
CREATE FUNCTION custom_profile_fields_own_profile() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_own_profiles(ARRAY(
    SELECT DISTINCT v.user_id FROM custom_profile_values v
    WHERE v.field_id IN (
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.field_type IS DISTINCT FROM o.field_type OR n.sort_order IS DISTINCT FROM o.sort_order)));
  RETURN NULL;
END
$$;
CREATE TRIGGER custom_profile_fields_own_profile AFTER UPDATE ON custom_profile_fields
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION custom_profile_fields_own_profile();

UPDATE users SET own_profile = own_profile_of(id) WHERE id IN (SELECT user_id FROM custom_profile_values);

-- The own-user view reads the new column: PGlite's change notifications
-- (0005) must report its changes with the other columns of users.
DROP TRIGGER users_notify_change ON users;
CREATE TRIGGER users_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF
  id, email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, is_active, is_imported_stub, timezone,
  avatar_version, date_joined, awaiting_first_login, last_login_at, presence_enabled, can_change_user_emails,
  videocall_token, api_key_hash, own_profile
  ON users FOR EACH STATEMENT
  WHEN (current_setting('teamchat.notify_changes', true) = 'on') EXECUTE FUNCTION notify_change();
