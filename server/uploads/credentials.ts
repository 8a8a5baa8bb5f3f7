/**
 * HTTP Basic authentication for the routes outside the generated bindings
 * (file serving, tus), with the same email:api_key credentials and the
 * same UNAUTHORIZED answer as the API.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate } from '../auth/credentials.js';
import { services } from '../services.js';
import type { UserRow } from '../store/rows.js';

/** The authenticated user, or null after answering 401. */
export async function basicAuthUser(request: FastifyRequest, reply: FastifyReply): Promise<UserRow | null> {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2})$/i.exec(request.headers.authorization?.trim() ?? '');
  const credentials = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const colon = credentials.indexOf(':');
  const user = colon > 0 ? await authenticate(services(request).db, credentials.slice(0, colon), credentials.slice(colon + 1)) : null;
  if (!user) {
    void reply
      .code(401)
      .header('www-authenticate', 'Basic realm="teamchat"')
      .send({ result: 'error', msg: 'Missing or invalid HTTP Basic credentials', code: 'UNAUTHORIZED' });
    return null;
  }
  return user;
}
