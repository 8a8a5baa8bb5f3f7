// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { fetchApiKey as checkPassword, loginRetryAfter } from '../auth/credentials.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';

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
  const { db, secret, config, now } = services(ctx.request);
  const attempt = { username: params.username, clientAddress: ctx.request.ip };
  const result = await checkPassword(db, secret, params.username, params.password, config, { ...attempt, now: now() });
  if (result.ok) return { api_key: result.apiKey, email: result.email, user_id: result.userId };
  // Username and address only: the password never reaches the log.
  ctx.log.info({ username: params.username, clientAddress: attempt.clientAddress, reason: result.reason }, 'fetch_api_key refused');
  switch (result.reason) {
    case 'rate_limited': {
      const retryAfter = await loginRetryAfter(db, attempt, config, now());
      ctx.reply.header('Retry-After', String(retryAfter));
      throw new ApiError('RATE_LIMIT_HIT', `Too many failed attempts; try again in ${retryAfter} seconds`, { 'retry-after': retryAfter });
    }
    case 'deactivated':
      throw new ApiError('BAD_REQUEST', 'Your account has been deactivated');
    case 'invalid_credentials':
      throw new ApiError('BAD_REQUEST', 'Your username or password is incorrect');
  }
};
