/** Storing an upload and recording its row: the same for the plain upload and a finished tus upload. */
import type { Readable } from 'node:stream';
import type { Db } from '../store/db.js';
import { getRealm } from '../store/realm.js';
import { insertUpload } from '../store/uploads.js';
import { newPathId, sanitizeFilename, uploadContentType, uploadUrl } from './names.js';
import type { UploadStore } from './store.js';

const MIB = 1024 * 1024;

/** The organization's largest accepted file, in bytes. */
export async function maxUploadBytes(db: Db): Promise<number> {
  const realm = await getRealm(db);
  if (!realm) throw new Error('the organization does not exist');
  return realm.max_file_upload_size_mib * MIB;
}

export interface IncomingUpload {
  ownerId: number;
  /** As the client named it; sanitized here. */
  filename: string;
  contentType: string | null | undefined;
  source: Readable | Uint8Array;
  now: number;
}

export interface SavedUpload {
  url: string;
  filename: string;
}

export async function saveUpload(db: Db, store: UploadStore, upload: IncomingUpload): Promise<SavedUpload> {
  const filename = sanitizeFilename(upload.filename);
  const realm = await getRealm(db);
  if (!realm) throw new Error('the organization does not exist');
  const pathId = newPathId(realm.id, filename);
  const size = await store.put(pathId, upload.source);
  try {
    await insertUpload(db, {
      owner_id: upload.ownerId,
      path_id: pathId,
      filename,
      content_type: uploadContentType(upload.contentType, filename),
      size,
      created_at: upload.now,
    });
  } catch (error) {
    await store.delete(pathId);
    throw error;
  }
  return { url: uploadUrl(pathId), filename };
}
