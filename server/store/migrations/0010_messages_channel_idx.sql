-- A narrow on a channel walks that channel's messages in id order from its
-- anchor (server/docs/narrow-ranges.md). Without this index the walk is
-- messages_pkey's, which passes every message of every other channel on the
-- way: in an organization where the channel holds few of the messages, that
-- is the history per request.
CREATE INDEX messages_channel_idx ON messages (channel_id, id);
