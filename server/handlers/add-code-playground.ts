// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /realm/playgrounds: Add a code playground
 *
 * Parameters:
 * - `name` (string, body, required)
 * - `pygments_language` (string, body, required)
 * - `url_template` (string, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const addCodePlayground: Handlers['addCodePlayground'] = async (params, ctx) => {
  return {
    id: 1,
  };
};
