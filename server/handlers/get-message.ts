// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { prefetchedMessageOf } from '../auth/credentials.js';
import { canAccessViewedMessage } from '../domain/access.js';
import { messageRecord } from '../domain/messages.js';
import { isGuest } from '../domain/roles.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { messageForViewer } from '../store/messages.js';

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
  const { db, cache } = services(ctx.request);
  // One statement reads the message and everything the caller's view of it
  // needs: on PostgreSQL the authenticating one (app.ts), else its own.
  const prefetched = prefetchedMessageOf(ctx.user, params.message_id);
  const message = prefetched !== undefined ? prefetched : await messageForViewer(db, { id: ctx.user.id, isGuest: isGuest(ctx.user) }, params.message_id);
  if (!message || !canAccessViewedMessage(ctx.user, message)) throw new ApiError('BAD_REQUEST', 'Invalid message(s)');
  const realm = (await cache.realm(db))!;
  const linkifiers = message.type === 'stream' ? await cache.linkifiers(db) : [];
  const record = messageRecord(message, realm, linkifiers, {
    applyMarkdown: params.apply_markdown ?? true,
    allowEmptyTopicName: params.allow_empty_topic_name ?? false,
  });
  return { message: record, raw_content: message.content };
};
