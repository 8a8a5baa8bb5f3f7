// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { changeSubgroups } from '../domain/groups.js';
import { requireAdmin } from '../domain/roles.js';
import { services } from '../services.js';

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
  // Administrators only, bots with that role included (the spec's decision).
  requireAdmin(ctx.user, 'change the subgroups of a user group');
  await services(ctx.request).db.transaction((tx) =>
    changeSubgroups(tx, params.user_group_id, { add: params.add ?? [], delete: params.delete ?? [] }),
  );
  return {};
};
