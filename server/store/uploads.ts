import type { Db } from './db.js';
import type { MessageRow, UploadRow } from './rows.js';

export type NewUpload = Omit<UploadRow, 'id'>;

export async function insertUpload(db: Db, upload: NewUpload): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO uploads (owner_id, path_id, filename, content_type, size, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [upload.owner_id, upload.path_id, upload.filename, upload.content_type, upload.size, upload.created_at],
  );
  return rows[0]!.id;
}

export async function getUploadByPathId(db: Db, pathId: string): Promise<UploadRow | null> {
  const { rows } = await db.query<UploadRow>('SELECT * FROM uploads WHERE path_id = $1', [pathId]);
  return rows[0] ?? null;
}

/**
 * Messages that link the upload: those recorded in upload_messages, and
 * those whose raw content contains its URL path. Newest first, at most
 * `limit`.
 */
export async function messagesLinkingUpload(db: Db, upload: Pick<UploadRow, 'id' | 'path_id'>, limit: number): Promise<MessageRow[]> {
  const pattern = `%/user_uploads/${upload.path_id.replace(/[\\%_]/g, '\\$&')}%`;
  const { rows } = await db.query<MessageRow>(
    `SELECT * FROM messages
     WHERE id IN (SELECT message_id FROM upload_messages WHERE upload_id = $1) OR content LIKE $2
     ORDER BY id DESC LIMIT $3`,
    [upload.id, pattern, limit],
  );
  return rows;
}
