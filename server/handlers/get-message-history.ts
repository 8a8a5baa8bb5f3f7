// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * GET /messages/{message_id}/history: Get a message's edit history
 *
 * Parameters:
 * - `message_id` (integer, path, required)
 * - `allow_empty_topic_name` (boolean, query, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const getMessageHistory: Handlers['getMessageHistory'] = async (params, ctx) => {
  return {
    message_history: [
      {
        topic: 'deploys',
        content: 'Deploy of **v2.3** is done.',
        rendered_content: '<p>Deploy of <strong>v2.3</strong> is done.</p>',
        timestamp: 1767254400,
        user_id: 5,
      },
      {
        topic: 'deploys',
        content: 'Deploy of **v2.3** is done. See #42.',
        rendered_content: '<p>Deploy of <strong>v2.3</strong> is done. See <a href="https://github.com/lakeside/app/issues/42">#42</a>.</p>',
        timestamp: 1767254700,
        user_id: 5,
        prev_content: 'Deploy of **v2.3** is done.',
        prev_rendered_content: '<p>Deploy of <strong>v2.3</strong> is done.</p>',
        content_html_diff: '<p>Deploy of <strong>v2.3</strong> is done.<ins> See <a href="https://github.com/lakeside/app/issues/42">#42</a>.</ins></p>',
      },
    ],
  };
};
