// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { getAccessibleMessageOrThrow } from '../domain/access.js';
import { messageRecord } from '../domain/messages.js';
import { services } from '../services.js';
import { getRealm } from '../store/realm.js';

/**
 * GET /messages/{message_id}: Fetch a single message
 *
 * Parameters:
 * - `message_id` (integer, path, required)
 * - `apply_markdown` (boolean, query, optional)
 * - `allow_empty_topic_name` (boolean, query, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const getMessage: Handlers['getMessage'] = async (params, ctx) => {
  const { db } = services(ctx.request);
  const message = await getAccessibleMessageOrThrow(db, ctx.user, params.message_id);
  const realm = (await getRealm(db))!;
  const record = await messageRecord(db, ctx.user, message, realm, {
    applyMarkdown: params.apply_markdown ?? true,
    allowEmptyTopicName: params.allow_empty_topic_name ?? false,
  });
  return { message: record, raw_content: message.content };
};
