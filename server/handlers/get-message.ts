// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

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
  return {
    raw_content: 'Deploy of **v2.3** is done. See #42.',
    message: {
      id: 101,
      type: 'stream',
      sender_id: 5,
      sender_email: 'member@example.com',
      sender_full_name: 'Dana Kim',
      sender_realm_str: 'lakeside',
      avatar_url: 'https://chat.example.com/user_avatars/1/5.png?version=1',
      client: 'website',
      content: '<p>Deploy of <strong>v2.3</strong> is done. See <a href="https://github.com/lakeside/app/issues/42">#42</a>.</p>',
      content_type: 'text/html',
      display_recipient: 'engineering',
      recipient_id: 9,
      stream_id: 2,
      subject: 'deploys',
      topic_links: [],
      is_me_message: false,
      reactions: [
        {
          emoji_name: 'tada',
          emoji_code: '1f389',
          reaction_type: 'unicode_emoji',
          user_id: 3,
        },
        {
          emoji_name: 'tada',
          emoji_code: '1f389',
          reaction_type: 'unicode_emoji',
          user_id: 4,
        },
      ],
      submessages: [],
      timestamp: 1767254400,
      last_edit_timestamp: 1767254700,
      edit_history: [
        {
          user_id: 5,
          timestamp: 1767254700,
          prev_content: 'Deploy of **v2.3** is done.',
          prev_rendered_content: '<p>Deploy of <strong>v2.3</strong> is done.</p>',
        },
      ],
      flags: ['read'],
    },
  };
};
