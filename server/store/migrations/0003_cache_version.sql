-- One number every server process compares with what it has cached
-- (organization settings, linkifiers, custom emoji, groups, profile fields):
-- any change to those tables bumps it in the same transaction, through
-- statement triggers, so changes made by another process, a script or psql
-- all count. Authentication reads it with the caller's row (no extra round trip).
CREATE TABLE cache_version (
  id integer PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO cache_version (id, version) VALUES (1, 1);

CREATE FUNCTION bump_cache_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER realm_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON realm
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
CREATE TRIGGER linkifiers_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON linkifiers
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
CREATE TRIGGER custom_emoji_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_emoji
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
CREATE TRIGGER user_groups_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_groups
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
CREATE TRIGGER user_group_members_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_group_members
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
CREATE TRIGGER user_group_subgroups_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_group_subgroups
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
CREATE TRIGGER custom_profile_fields_cache_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON custom_profile_fields
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
