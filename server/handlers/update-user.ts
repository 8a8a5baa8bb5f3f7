// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { applyUserUpdate, planUserUpdate } from '../domain/users.js';
import { services } from '../services.js';

/**
 * PATCH /users/{user_id}: Update a user
 *
 * Parameters:
 * - `user_id` (integer, path, required)
 * - `full_name` (string, body, optional)
 * - `role` (Role, body, optional)
 * - `profile_data` (ProfileDataUpdate[], body, optional, JSON-encoded)
 * - `new_email` (string, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateUser: Handlers['updateUser'] = async (params, ctx) => {
  const { db } = services(ctx.request);
  await applyUserUpdate(db, await planUserUpdate(db, ctx.user, params));
  return {};
};
