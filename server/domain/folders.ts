/**
 * Channel folder changes. Names are unique among all folders, archived ones
 * included, compared case-insensitively (the database's unique index), so a
 * folder list never shows two folders that read the same. Lengths count
 * Unicode code points against the organization's limits.
 */
import { ApiError } from '../errors.js';
import { channelFolderNameTaken, type ChannelFolderChanges } from '../store/channels.js';
import type { Db } from '../store/db.js';
import { listLinkifiers } from '../store/realm.js';
import type { RealmRow } from '../store/rows.js';
import { renderMarkdown } from './markdown.js';

export interface FolderUpdate {
  name?: string;
  description?: string;
  is_archived?: boolean;
}

type Limits = Pick<RealmRow, 'max_channel_folder_name_length' | 'max_channel_folder_description_length'>;

const codePoints = (text: string): number => [...text].length;

/** Checks the requested values and returns the columns to write (with the rendered description). */
export async function folderChanges(db: Db, folderId: number, update: FolderUpdate, limits: Limits): Promise<ChannelFolderChanges> {
  const changes: ChannelFolderChanges = {};
  if (update.name !== undefined) {
    const name = update.name.trim();
    if (name === '') throw new ApiError('BAD_REQUEST', 'Channel folder name must not be empty');
    if (codePoints(name) > limits.max_channel_folder_name_length) {
      throw new ApiError('BAD_REQUEST', `Channel folder name is too long (limit: ${limits.max_channel_folder_name_length} characters)`);
    }
    if (/\p{Cc}/u.test(name)) throw new ApiError('BAD_REQUEST', 'Channel folder name contains invalid characters');
    if (await channelFolderNameTaken(db, name, folderId)) {
      throw new ApiError('BAD_REQUEST', `A channel folder named "${name}" already exists`);
    }
    changes.name = name;
  }
  if (update.description !== undefined) {
    const description = update.description.trim();
    if (codePoints(description) > limits.max_channel_folder_description_length) {
      throw new ApiError(
        'BAD_REQUEST',
        `Channel folder description is too long (limit: ${limits.max_channel_folder_description_length} characters)`,
      );
    }
    changes.description = description;
    changes.renderedDescription = description === '' ? '' : renderMarkdown(description, { linkifiers: await listLinkifiers(db) });
  }
  if (update.is_archived !== undefined) changes.isArchived = update.is_archived;
  return changes;
}
