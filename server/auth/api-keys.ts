import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_LENGTH = 32;
const API_KEY_SHAPE = /^[A-Za-z0-9]{32}$/;

/** 32 characters from a URL-safe alphabet, about 190 bits of randomness. */
export function generateApiKey(): string {
  let key = '';
  for (let i = 0; i < API_KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

export function isApiKeyShaped(value: string): boolean {
  return API_KEY_SHAPE.test(value);
}

/** What the database stores: SHA-256 in hex (the key is random, so no salt is needed). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Compares in time independent of where the two hashes differ. */
export function apiKeyMatchesHash(key: string, storedHash: string): boolean {
  const actual = createHash('sha256').update(key, 'utf8').digest();
  const expected = Buffer.from(storedHash, 'hex');
  return expected.length === actual.length && timingSafeEqual(actual, expected);
}
