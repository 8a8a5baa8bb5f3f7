import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyMatchesHash, generateApiKey, hashApiKey } from '../../server/auth/api-keys.js';
import { authenticate, fetchApiKey, newCredentials } from '../../server/auth/credentials.js';
import { hashPassword, verifyPassword } from '../../server/auth/passwords.js';
import { loadServerSecret, seal, unseal } from '../../server/auth/secret.js';
import type { DbHandle } from '../../server/store/db.js';
import { migrate } from '../../server/store/migrate.js';
import { openPostgres } from '../../server/store/postgres.js';
import { getUserById, insertUser, recordLogin } from '../../server/store/users.js';
import { startPostgres, type ThrowawayPostgres } from '../support/postgres.js';

describe('passwords', () => {
  it('verify the right password only', async () => {
    const stored = await hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct hors', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salt every hash', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  it.each([
    ['empty', ''],
    ['another scheme', 'bcrypt$2b$10$abc'],
    ['bad cost', 'scrypt$0$8$1$c2FsdA$aGFzaA'],
    ['short hash', 'scrypt$16384$8$1$c2FsdA$aGFzaA'],
  ])('reject a stored value that is not a valid scrypt hash (%s)', async (_case, stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
  });
});

describe('API keys', () => {
  it('are 32 URL-safe characters and differ every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('match only their own hash', () => {
    const key = generateApiKey();
    const hash = hashApiKey(key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyMatchesHash(key, hash)).toBe(true);
    expect(apiKeyMatchesHash(generateApiKey(), hash)).toBe(false);
    expect(apiKeyMatchesHash(key, 'not hex')).toBe(false);
  });
});

describe('server secret', () => {
  it('seals and unseals, and refuses another secret or altered text', () => {
    const secret = randomBytes(32);
    const sealed = seal(secret, 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1');
    expect(sealed).not.toContain('gR7kTq2V');
    expect(unseal(secret, sealed)).toBe('gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1');
    expect(unseal(randomBytes(32), sealed)).toBeNull();
    const [iv, tag, body] = sealed.split('.');
    expect(unseal(secret, [iv, tag, body!.slice(0, -2) + (body!.endsWith('AA') ? 'BB' : 'AA')].join('.'))).toBeNull();
    expect(unseal(secret, 'garbage')).toBeNull();
  });

  it('is created once in the data directory with owner-only permissions', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'teamchat-secret-'));
    try {
      const first = loadServerSecret({ secretKey: null, dataDir });
      expect(first).toHaveLength(32);
      expect(loadServerSecret({ secretKey: null, dataDir }).equals(first)).toBe(true);
      expect(statSync(join(dataDir, 'secret.key')).mode & 0o777).toBe(0o600);
      const configured = randomBytes(32);
      expect(loadServerSecret({ secretKey: configured, dataDir })).toBe(configured);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('authentication against the database', () => {
  let server: ThrowawayPostgres;
  let db: DbHandle;
  const secret = randomBytes(32);
  const limits = { loginFailureLimit: 3, loginFailureWindowSeconds: 600 };
  const keys: Record<string, string> = {};

  const addUser = async (id: number, email: string, password: string | null, extra: { awaitingFirstLogin?: boolean } = {}) => {
    const { apiKey, stored } = await newCredentials(secret, password);
    keys[email] = apiKey;
    await db.transaction((tx) =>
      insertUser(tx, {
        id,
        email,
        fullName: email,
        role: 400,
        ...(password === null ? { bot: { type: 'generic' as const, ownerId: 1 } } : {}),
        dateJoined: 1000,
        ...extra,
        credentials: stored,
      }),
    );
  };

  beforeAll(async () => {
    server = await startPostgres();
    db = await openPostgres({ url: server.url });
    await migrate(db);
    await db.exec(`INSERT INTO user_groups (id, name, is_system_group, can_manage_group_id, can_add_members_group_id,
      can_remove_members_group_id, created_at) VALUES (1, 'role:members', true, 1, 1, 1, 0), (2, 'role:fullmembers', true, 1, 1, 1, 0)`);
    await addUser(1, 'Pat@Example.com', 'pat-password');
    await addUser(2, 'bot@example.com', null);
    await addUser(3, 'gone@example.com', 'gone-password');
    await addUser(4, 'imported@example.com', 'imported-password', { awaitingFirstLogin: true });
    await addUser(5, 'limited@example.com', 'limited-password');
    await db.query('UPDATE users SET is_active = false WHERE id = 3');
  });

  afterAll(async () => {
    await db?.close();
    await server?.stop();
  });

  it('finds the user by email (any case) and key', async () => {
    expect((await authenticate(db, 'pat@example.com', keys['Pat@Example.com']!))?.id).toBe(1);
    expect((await authenticate(db, 'bot@example.com', keys['bot@example.com']!))?.is_bot).toBe(true);
  });

  it.each([
    ['a wrong key', 'pat@example.com', () => generateApiKey()],
    ["another user's key", 'pat@example.com', () => keys['bot@example.com']!],
    ['an unknown email', 'nobody@example.com', () => keys['Pat@Example.com']!],
    ['a deactivated user', 'gone@example.com', () => keys['gone@example.com']!],
    ['an empty key', 'pat@example.com', () => ''],
  ])('rejects %s', async (_case, email, key) => {
    expect(await authenticate(db, email, key())).toBeNull();
  });

  it('never returns secret columns', async () => {
    const user = await authenticate(db, 'pat@example.com', keys['Pat@Example.com']!);
    for (const secretColumn of ['password_hash', 'api_key_hash', 'api_key_sealed', 'videocall_token']) {
      expect(user).not.toHaveProperty(secretColumn);
    }
    expect(user).toHaveProperty('has_videocall_token', false);
  });

  it('fetch_api_key returns the existing key for the right password', async () => {
    expect(await fetchApiKey(db, secret, 'PAT@example.com', 'pat-password', limits)).toEqual({
      ok: true,
      apiKey: keys['Pat@Example.com'],
      email: 'Pat@Example.com',
      userId: 1,
    });
  });

  it.each([
    ['a wrong password', 'pat@example.com', 'wrong', 'invalid_credentials'],
    ['an unknown user', 'nobody@example.com', 'pat-password', 'invalid_credentials'],
    ['a bot without password', 'bot@example.com', '', 'invalid_credentials'],
    ['a deactivated user', 'gone@example.com', 'gone-password', 'deactivated'],
  ])('fetch_api_key refuses %s', async (_case, username, password, reason) => {
    expect(await fetchApiKey(db, secret, username, password, limits)).toEqual({ ok: false, reason });
  });

  it('fetch_api_key stops trying after too many failures for a username', async () => {
    for (let i = 0; i < limits.loginFailureLimit; i++) {
      expect((await fetchApiKey(db, secret, 'limited@example.com', 'wrong', limits)).ok).toBe(false);
    }
    expect(await fetchApiKey(db, secret, 'limited@example.com', 'limited-password', limits)).toEqual({ ok: false, reason: 'rate_limited' });
  });

  it('rotates a key sealed with a lost secret, and the old key stops working', async () => {
    const result = await fetchApiKey(db, randomBytes(32), 'imported@example.com', 'imported-password', limits);
    if (!result.ok) throw new Error(result.reason);
    expect(result.apiKey).not.toBe(keys['imported@example.com']);
    expect((await authenticate(db, 'imported@example.com', result.apiKey))?.id).toBe(4);
    expect(await authenticate(db, 'imported@example.com', keys['imported@example.com']!)).toBeNull();
  });

  it('moves date_joined to the first login of an imported account only', async () => {
    const user = (await getUserById(db, 4))!;
    expect(user.awaiting_first_login).toBe(false);
    expect(user.date_joined).toBeGreaterThan(1000);
    await recordLogin(db, 1, 5000);
    await recordLogin(db, 4, 9_999_999_999);
    expect((await getUserById(db, 1))!.date_joined).toBe(1000);
    expect((await getUserById(db, 4))!.date_joined).toBe(user.date_joined);
  });
});
