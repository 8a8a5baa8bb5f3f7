import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfig } from '../config.js';

const SECRET_FILE = 'secret.key';

/**
 * The 32-byte server secret: SECRET_KEY when set (required when several
 * processes share one PostgreSQL without sharing DATA_DIR), otherwise
 * DATA_DIR/secret.key, created on first start with owner-only permissions.
 */
export function loadServerSecret(config: Pick<ServerConfig, 'secretKey' | 'dataDir'>): Buffer {
  if (config.secretKey) return config.secretKey;
  const path = join(config.dataDir, SECRET_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx' fails when the file exists, so concurrent first starts agree on one secret.
    writeFileSync(path, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = readFileSync(path, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(text)) throw new Error(`${path} must hold 64 hexadecimal characters`);
  return Buffer.from(text, 'hex');
}

/** AES-256-GCM: `iv.tag.ciphertext` in base64url. */
export function seal(secret: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.');
}

/** The sealed text, or null when it was sealed with another secret or altered. */
export function unseal(secret: Buffer, sealed: string): string | null {
  const parts = sealed.split('.');
  if (parts.length !== 3) return null;
  const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
  try {
    const decipher = createDecipheriv('aes-256-gcm', secret, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
