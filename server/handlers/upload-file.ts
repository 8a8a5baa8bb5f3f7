// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /user_uploads: Upload a file
 *
 * Parameters:
 * - `file` (file, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const uploadFile: Handlers['uploadFile'] = async (params, ctx) => {
  return {
    url: '/user_uploads/1/4e/kJ3m9xQ2/release-notes.pdf',
    uri: '/user_uploads/1/4e/kJ3m9xQ2/release-notes.pdf',
    filename: 'release-notes.pdf',
  };
};
