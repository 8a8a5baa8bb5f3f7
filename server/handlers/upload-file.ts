// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { ApiError } from '../errors.js';
import { services } from '../services.js';
import { uploadStore } from '../uploads/index.js';
import { maxUploadBytes, saveUpload } from '../uploads/save.js';

/**
 * POST /user_uploads: Upload a file
 *
 * Parameters:
 * - `file` (file, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const uploadFile: Handlers['uploadFile'] = async (params, ctx) => {
  const { db, now } = services(ctx.request);
  const { file } = params;
  // The bindings hand over the part's bytes; a Blob arrives only from in-process callers.
  const data = file.data instanceof Uint8Array ? file.data : new Uint8Array(await file.data.arrayBuffer());
  const limit = await maxUploadBytes(db);
  if (data.byteLength > limit) {
    throw new ApiError('REQUEST_TOO_LARGE', `The file is larger than the organization's limit of ${limit / (1024 * 1024)} MiB`);
  }
  const saved = await saveUpload(db, uploadStore(ctx.request), {
    ownerId: ctx.user.id,
    filename: file.filename,
    contentType: file.contentType,
    source: data,
    now: now(),
  });
  return { url: saved.url, uri: saved.url, filename: saved.filename };
};
