/**
 * Where uploaded files live. Every server process must see the same files
 * (scaling out), so the default local-disk store suits one machine or a
 * shared volume; an object store implementing this interface replaces it.
 * Keys are upload path ids (server/uploads/names.ts): relative, '/'-separated,
 * never containing '..'.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  size: number;
  stream(): Readable;
}

export interface UploadStore {
  /** Stores the bytes under the key and returns how many were written. */
  put(key: string, source: Readable | Uint8Array): Promise<number>;
  /** The stored file, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
}

export class LocalDiskUploadStore implements UploadStore {
  private readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  async put(key: string, source: Readable | Uint8Array): Promise<number> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Written aside, then renamed: a reader never sees half a file.
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await pipeline(source instanceof Uint8Array ? [source] : source, createWriteStream(partial, { flags: 'wx' }));
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return (await stat(path)).size;
  }

  async get(key: string): Promise<StoredFile | null> {
    const path = this.pathOf(key);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return { size: info.size, stream: () => createReadStream(path) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** The file of a key, refusing any key that would leave the store's directory. */
  private pathOf(key: string): string {
    const segments = key.split('/');
    if (segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('\\') || segment.includes('\0'))) {
      throw new Error(`invalid upload key: ${key}`);
    }
    const path = resolve(this.root, ...segments);
    if (!path.startsWith(this.root + sep)) throw new Error(`invalid upload key: ${key}`);
    return path;
  }
}
