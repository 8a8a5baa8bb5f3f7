// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { folderChanges } from '../domain/folders.js';
import { requireAdmin } from '../domain/roles.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { lockChannelFolder, updateChannelFolder as saveChannelFolder } from '../store/channels.js';
import { isUniqueViolation } from '../store/db.js';
import { getRealm } from '../store/realm.js';

/**
 * PATCH /channel_folders/{channel_folder_id}: Update a channel folder
 *
 * Parameters:
 * - `channel_folder_id` (integer, path, required)
 * - `name` (string, body, optional)
 * - `description` (string, body, optional)
 * - `is_archived` (boolean, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateChannelFolder: Handlers['updateChannelFolder'] = async (params, ctx) => {
  requireAdmin(ctx.user, 'update channel folders');
  const { db } = services(ctx.request);
  const { channel_folder_id: folderId, ...update } = params;
  try {
    await db.transaction(async (tx) => {
      const realm = await getRealm(tx);
      if (!realm) throw new Error('the organization does not exist');
      if (!(await lockChannelFolder(tx, folderId))) throw new ApiError('BAD_REQUEST', 'Invalid channel folder ID');
      await saveChannelFolder(tx, folderId, await folderChanges(tx, folderId, update, realm));
    });
  } catch (error) {
    // Another request took the name between the check and the write.
    if (isUniqueViolation(error)) throw new ApiError('BAD_REQUEST', `A channel folder named "${update.name?.trim()}" already exists`);
    throw error;
  }
  return {};
};
