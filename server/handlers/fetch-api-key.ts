// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /fetch_api_key: Fetch an API key
 *
 * Parameters:
 * - `username` (string, body, required)
 * - `password` (string, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const fetchApiKey: Handlers['fetchApiKey'] = async (params, ctx) => {
  return {
    api_key: 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1',
    email: 'owner@example.com',
    user_id: 2,
  };
};
