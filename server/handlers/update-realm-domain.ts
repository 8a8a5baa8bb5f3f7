// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * PATCH /realm/domains/{domain}: Update an allowed domain
 *
 * Parameters:
 * - `domain` (string, path, required)
 * - `allow_subdomains` (boolean, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateRealmDomain: Handlers['updateRealmDomain'] = async (params, ctx) => {
  return {};
};
