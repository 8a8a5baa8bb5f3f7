import type { FastifyRequest } from 'fastify';
import type { UserRow } from '../store/rows.js';

/** The server's own origin as the client reached it, for absolute URLs in responses. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/** Avatar of a user; the version changes with every new avatar so caches refresh. */
export function avatarUrl(origin: string, user: Pick<UserRow, 'id' | 'avatar_version'>): string {
  return `${origin}/user_avatars/1/${user.id}.png?version=${user.avatar_version}`;
}
