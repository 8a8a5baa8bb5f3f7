// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

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
  return {};
};
