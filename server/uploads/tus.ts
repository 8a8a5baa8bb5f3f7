/**
 * The resumable-upload endpoint (tus protocol) at /api/v1/tus, on
 * @tus/server with partial uploads kept by @tus/file-store under
 * <upload dir>/.tus. Requests carry the API's HTTP Basic credentials; an
 * upload belongs to the user who created it (recorded in its metadata) and
 * answers only to that user. When the last byte arrives the file moves to
 * the upload store and gets the same upload row as POST /user_uploads, and
 * the finishing request answers 200 with the same JSON body (`url`, `uri`,
 * `filename`) instead of tus's empty 204. File names and types come from
 * the `filename`/`name` and `filetype`/`type` metadata that tus clients send.
 *
 * Locks on in-progress uploads are per process, so with several processes
 * one upload's requests should reach the same process (sticky sessions).
 */
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { EVENTS, Server, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../store/rows.js';
import { basicAuthUser } from './credentials.js';
import { maxUploadBytes, saveUpload } from './save.js';
import type { UploadStore } from './store.js';

export const TUS_PATH = '/api/v1/tus';
const OWNER = 'owner_id';
const UNFINISHED_UPLOAD_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What @tus/server passes its hooks: a web request wrapping the Node one. */
interface NodeBacked {
  runtime?: { node?: { req: object } };
}

export async function registerTus(app: FastifyInstance, store: UploadStore): Promise<void> {
  const { db, config, now } = app.services;
  const users = new WeakMap<object, UserRow>();
  const userOf = (req: NodeBacked): UserRow => {
    const user = req.runtime?.node && users.get(req.runtime.node.req);
    if (!user) throw new Error('tus request without an authenticated user');
    return user;
  };
  const datastore = new FileStore({ directory: join(config.uploadDir, '.tus'), expirationPeriodInMilliseconds: UNFINISHED_UPLOAD_LIFETIME_MS });
  const tus = new Server({
    path: TUS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: () => maxUploadBytes(db),
    onUploadCreate: async (req, upload) => ({ metadata: { ...upload.metadata, [OWNER]: String(userOf(req).id) } }),
    onUploadFinish: async (_req, upload) => {
      const saved = await saveUpload(db, store, {
        ownerId: Number(upload.metadata?.[OWNER]),
        filename: metadata(upload, 'filename', 'name') ?? '',
        contentType: metadata(upload, 'filetype', 'type'),
        source: datastore.read(upload.id),
        now: now(),
      });
      return {
        status_code: 200,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ result: 'success', msg: '', url: saved.url, uri: saved.url, filename: saved.filename }),
      };
    },
  });

  // The finished upload now lives in the upload store. Removed only once tus
  // has answered, since the creation request still reads it after the hook.
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => {
    datastore.remove(upload.id).catch((error: unknown) => app.log.error({ err: error }, 'could not remove a finished tus upload'));
  });

  const handle = async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
    // Browsers send CORS preflights (OPTIONS) without credentials; they reveal nothing.
    if (request.method !== 'OPTIONS') {
      const user = await basicAuthUser(request, reply);
      if (!user) return reply;
      const id = request.params.id;
      if (id !== undefined && !(await ownsUpload(datastore, id, user))) {
        return reply.code(404).header('tus-resumable', '1.0.0').type('text/plain').send('The file for this url was not found\n');
      }
      users.set(request.raw, user);
    }
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };

  await app.register(async (scope) => {
    // tus reads the raw request stream itself: no body parsing here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const methods = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'] as const;
    scope.route({ method: [...methods], url: TUS_PATH, handler: handle });
    scope.route({ method: [...methods], url: `${TUS_PATH}/:id`, handler: handle });
  });
}

/** Unknown ids pass through, for tus to answer them as it does. */
async function ownsUpload(datastore: FileStore, id: string, user: UserRow): Promise<boolean> {
  let upload: Upload;
  try {
    upload = await datastore.getUpload(id);
  } catch {
    return true;
  }
  return upload.metadata?.[OWNER] === String(user.id);
}

function metadata(upload: Upload, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = upload.metadata?.[key];
    if (value) return value;
  }
  return null;
}
