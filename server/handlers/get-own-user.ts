// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * GET /users/me: Get own user
 *
 * Parameters:
 * none.
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const getOwnUser: Handlers['getOwnUser'] = async (params, ctx) => {
  return {
    user_id: 7,
    email: 'deploy-bot@example.com',
    delivery_email: 'deploy-bot@example.com',
    full_name: 'Deploy Bot',
    avatar_url: 'https://chat.example.com/user_avatars/1/7.png?version=1',
    avatar_version: 1,
    role: 400,
    is_admin: false,
    is_owner: false,
    is_guest: false,
    is_bot: true,
    is_active: true,
    is_imported_stub: false,
    timezone: '',
    date_joined: '2025-03-10T14:00:00+00:00',
    max_message_id: 105,
  };
};
