-- Every user's copies of one message are found by equality (the foreign
-- key's cascade, a message's readers), never by a range or in id order.
-- As a B-tree, user_messages_message_idx also offered the planner a walk of
-- all users' copies in message id order, filtered down to the caller's:
-- chosen for a range of flags whenever it took the caller's matching copies
-- to be common (is:unread, estimated from all users' unread copies), it read
-- the whole history when they were rare (0.2 s at 100,000 messages). A hash
-- index answers the same equalities and offers no order, so a range walks
-- the caller's copies by their key (user_id, message_id).
DROP INDEX user_messages_message_idx;
CREATE INDEX user_messages_message_idx ON user_messages USING hash (message_id);
