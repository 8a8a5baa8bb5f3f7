-- The shared cache (server/store/cache.ts) keeps channel ids by the names
-- requests give (narrows name channels): a rename or a removed channel bumps
-- cache_version like the tables of 0003, so no name keeps pointing at a
-- channel it no longer names. New channels need nothing here: only names
-- that were found are kept, and a name names at most one channel.
CREATE TRIGGER channels_name_cache_version AFTER UPDATE OF name OR DELETE OR TRUNCATE ON channels
  FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version();
