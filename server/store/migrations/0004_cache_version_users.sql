-- The cached user-group graph (server/store/cache.ts) also knows which users
-- are deactivated, as group membership counts only active users: a change
-- of is_active, or a removed user, bumps cache_version like the tables of 0003.
-- New users need nothing here: their group memberships are inserted with them.
CREATE TRIGGER users_active_cache_version AFTER UPDATE OF is_active OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
