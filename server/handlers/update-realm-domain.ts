// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { requireOwner } from '../domain/roles.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { setRealmDomainAllowSubdomains } from '../store/realm.js';

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
  requireOwner(ctx.user, 'change allowed domains');
  const { db } = services(ctx.request);
  if (!(await setRealmDomainAllowSubdomains(db, params.domain, params.allow_subdomains))) {
    throw new ApiError('BAD_REQUEST', `No allowed domain ${params.domain}`);
  }
  return {};
};
