/**
 * GET /user_uploads/<path id>: the file, to its uploader, and to anyone who
 * can read a message that links it (shared by sending it). Which messages a
 * user can read is decided by server/domain/access.ts; here only "a message
 * whose content contains the URL, or recorded in upload_messages". Files
 * the caller may not read are answered exactly like missing ones.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canAccessMessage } from '../domain/access.js';
import { services } from '../services.js';
import type { Db } from '../store/db.js';
import type { UploadRow, UserRow } from '../store/rows.js';
import { getUploadByPathId, messagesLinkingUpload } from '../store/uploads.js';
import { basicAuthUser } from './credentials.js';
import { canonicalPathId, servingHeaders } from './names.js';
import type { UploadStore } from './store.js';

// Enough linking messages to find a readable one in practice, few enough to bound the work.
const LINKING_MESSAGES_CHECKED = 100;

export function registerFileServing(app: FastifyInstance, store: UploadStore): void {
  app.get('/user_uploads/*', async (request, reply) => {
    const user = await basicAuthUser(request, reply);
    if (!user) return reply;
    const pathId = canonicalPathId(requestedPath(request));
    const db = services(request).db;
    const upload = pathId === null ? null : await getUploadByPathId(db, pathId);
    if (!upload || !(await canRead(db, user, upload))) return notFound(reply);
    const file = await store.get(upload.path_id);
    if (!file) return notFound(reply);
    return reply
      .headers({ ...servingHeaders(upload.content_type, upload.filename), 'content-length': file.size, 'cache-control': 'private, max-age=86400' })
      .send(file.stream());
  });
}

/** The raw path after /user_uploads/, before any decoding. */
function requestedPath(request: FastifyRequest): string {
  const path = request.raw.url?.split('?', 1)[0] ?? '';
  return path.slice('/user_uploads/'.length);
}

async function canRead(db: Db, user: UserRow, upload: UploadRow): Promise<boolean> {
  if (upload.owner_id === user.id) return true;
  for (const message of await messagesLinkingUpload(db, upload, LINKING_MESSAGES_CHECKED)) {
    if (await canAccessMessage(db, user, message)) return true;
  }
  return false;
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ result: 'error', msg: 'File not found', code: 'NOT_FOUND' });
}
