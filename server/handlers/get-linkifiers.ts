// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

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
  return {
    linkifiers: [
      {
        id: 1,
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://github.com/lakeside/app/issues/{id}',
        example_input: '#42',
        reverse_template: '#{id}',
        alternative_url_templates: [],
      },
    ],
  };
};
