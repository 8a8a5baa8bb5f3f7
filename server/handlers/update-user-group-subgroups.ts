// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /user_groups/{user_group_id}/subgroups: Update subgroups of a user group
 *
 * Parameters:
 * - `user_group_id` (integer, path, required)
 * - `add` (integer[], body, optional, JSON-encoded)
 * - `delete` (integer[], body, optional, JSON-encoded)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateUserGroupSubgroups: Handlers['updateUserGroupSubgroups'] = async (params, ctx) => {
  return {};
};
