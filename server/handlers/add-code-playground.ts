// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { checkPlaygroundUrlTemplate, requiredText } from '../domain/playgrounds.js';
import { requireAdmin } from '../domain/roles.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { insertCodePlayground } from '../store/realm.js';

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
  requireAdmin(ctx.user, 'add code playgrounds');
  const name = requiredText(params.name, 'name');
  const language = requiredText(params.pygments_language, 'pygments_language');
  checkPlaygroundUrlTemplate(params.url_template);
  const id = await insertCodePlayground(services(ctx.request).db, {
    name,
    pygments_language: language,
    url_template: params.url_template,
  });
  if (id === null) throw new ApiError('BAD_REQUEST', `A playground named "${name}" already exists for ${language}`);
  return { id };
};
