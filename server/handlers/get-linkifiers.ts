// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { services } from '../services.js';
import { listLinkifiers } from '../store/realm.js';

/**
 * GET /realm/linkifiers: Get linkifiers
 *
 * Parameters:
 * none.
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const getLinkifiers: Handlers['getLinkifiers'] = async (params, ctx) => {
  const rows = await listLinkifiers(services(ctx.request).db);
  return {
    linkifiers: rows.map((row) => ({
      id: row.id,
      pattern: row.pattern,
      url_template: row.url_template,
      example_input: row.example_input,
      reverse_template: row.reverse_template,
      alternative_url_templates: row.alternative_url_templates,
    })),
  };
};
