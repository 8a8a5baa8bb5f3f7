// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /mark_topic_as_read: Mark messages in a topic as read
 *
 * Parameters:
 * - `stream_id` (integer, body, required)
 * - `topic_name` (string, body, required)
 *
 * @deprecated
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const markTopicAsRead: Handlers['markTopicAsRead'] = async (params, ctx) => {
  return {};
};
