// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /users/me/presence: Update own presence
 *
 * Parameters:
 * - `status` (string, body, required)
 * - `last_update_id` (integer, body, optional)
 * - `history_limit_days` (integer, body, optional)
 * - `ping_only` (boolean, body, optional)
 * - `new_user_input` (boolean, body, optional)
 * - `slim_presence` (boolean, body, optional, deprecated)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updatePresence: Handlers['updatePresence'] = async (params, ctx) => {
  return {
    presence_last_update_id: -1,
    server_timestamp: 1767258000.482,
    presences: {
      'admin@example.com': {
        aggregated: {
          client: 'website',
          status: 'active',
          timestamp: 1767257990,
        },
        website: {
          client: 'website',
          status: 'active',
          timestamp: 1767257990,
          pushable: false,
        },
      },
    },
  };
};
