// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { ownUserExtrasOf } from '../auth/credentials.js';
import { ownUser } from '../domain/users.js';
import { services } from '../services.js';

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
  return ownUser(services(ctx.request).db, ctx.user, ownUserExtrasOf(ctx.user));
};
