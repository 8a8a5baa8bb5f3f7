import { nowSeconds, type Db } from '../store/db.js';
import {
  forgetFailedLoginAttempt,
  lockLoginAttempts,
  recentFailedLogins,
  recordFailedLoginAttempt,
  type LoginAttempt,
} from '../store/failed-logins.js';
import type { SharedCache } from '../store/cache.js';
import type { UserRow } from '../store/rows.js';
import { OWN_USER_EXTRAS_COLUMNS, type OwnUserExtras } from '../store/profile.js';
import { recordLogin, USER_COLUMNS } from '../store/users.js';
import { messageForViewerSql, type MessageForViewer } from '../store/messages.js';
import { ROLE } from '../domain/roles.js';
import { apiKeyMatchesHash, generateApiKey, hashApiKey } from './api-keys.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { seal, unseal } from './secret.js';

/** What insertUser stores for a new account. */
export interface StoredCredentials {
  passwordHash: string | null;
  apiKeyHash: string;
  apiKeySealed: string;
}

/** A fresh API key (returned once, in clear) and the values to store. */
export async function newCredentials(secret: Buffer, password: string | null): Promise<{ apiKey: string; stored: StoredCredentials }> {
  const apiKey = generateApiKey();
  return {
    apiKey,
    stored: {
      passwordHash: password === null ? null : await hashPassword(password),
      apiKeyHash: hashApiKey(apiKey),
      apiKeySealed: seal(secret, apiKey),
    },
  };
}

// Compared against when the email is unknown, so the work done does not depend on it.
const ABSENT_KEY_HASH = hashApiKey('');

const AUTHENTICATE = `SELECT ${USER_COLUMNS}, api_key_hash, (SELECT version FROM cache_version WHERE id = 1) AS cache_version
  FROM users WHERE lower(email) = lower($1)`;
const AUTHENTICATE_WITH_OWN_USER = `SELECT ${USER_COLUMNS}, api_key_hash, (SELECT version FROM cache_version WHERE id = 1) AS cache_version,
  ${OWN_USER_EXTRAS_COLUMNS}
  FROM users WHERE lower(email) = lower($1)`;

// GET /messages/{id}: the message as the user found by the email sees it (messageForViewer's statement
// with that row as the viewer), null when there is no such message.
const AUTHENTICATE_WITH_MESSAGE = `SELECT ${USER_COLUMNS}, api_key_hash, (SELECT version FROM cache_version WHERE id = 1) AS cache_version,
  (SELECT row_to_json(viewed) FROM (${messageForViewerSql('users.id', '$2::integer', `(users.role = ${ROLE.guest})`)}) viewed) AS message
  FROM users WHERE lower(email) = lower($1)`;

// What GET /users/me needs beyond the caller's row, read by the authenticating statement (see `authenticate`).
const prefetchedOwnUser = new WeakMap<UserRow, OwnUserExtras>();
// What GET /messages/{id} needs, read by the authenticating statement: the id asked for, and the message or null.
const prefetchedMessage = new WeakMap<UserRow, { id: number; message: MessageForViewer | null }>();

/** The own-user extras read with this user's authentication, if it was asked for them. */
export function ownUserExtrasOf(user: UserRow): OwnUserExtras | undefined {
  return prefetchedOwnUser.get(user);
}

/**
 * The message `messageId` as this user sees it (what `messageForViewer`
 * answers), if their authentication read it; undefined if it did not (then
 * run that statement).
 */
export function prefetchedMessageOf(user: UserRow, messageId: number): MessageForViewer | null | undefined {
  const prefetched = prefetchedMessage.get(user);
  return prefetched?.id === messageId ? prefetched.message : undefined;
}

/**
 * The active user owning this email and API key, or null. Hashing and
 * comparison take the same time whatever the key, and whether or not the
 * email exists. The same statement reads the database's cache version for
 * `cache`, so what it holds is current for the rest of the request, and,
 * with `withOwnUser` (GET /users/me), what the own-user view needs beyond
 * the row (`ownUserExtrasOf`): that request is then one statement. Nothing
 * read for a key that does not match is kept.
 *
 * On a database whose changes the cache follows as they commit (PGlite,
 * server/docs/change-feed.md), a successful authentication is kept and the next one with
 * the same key runs no statement; any committed change to what it read
 * (the user's columns, and for the own-user view their messages and profile)
 * drops it first. A key that does not match what is kept is refused, since
 * what is kept is current; it still costs the same statement as any other
 * failure and one comparison, so a wrong key takes as long whether or not
 * the email is kept.
 */
export async function authenticate(
  db: Db,
  email: string,
  apiKey: string,
  cache?: SharedCache,
  options: { withOwnUser?: boolean; withMessage?: number } = {},
): Promise<UserRow | null> {
  // GET /messages/{id} likewise reads the message with the authenticating
  // statement, where one runs (a kept authentication runs none, and the
  // handler reads the message itself).
  const withMessage = options.withOwnUser ? undefined : options.withMessage;
  const statement = options.withOwnUser ? AUTHENTICATE_WITH_OWN_USER : withMessage !== undefined ? AUTHENTICATE_WITH_MESSAGE : AUTHENTICATE;
  const parameters = withMessage !== undefined ? [email, withMessage] : [email];
  const kept = cache?.authenticated(db, email);
  if (kept && (kept.ownUser || !options.withOwnUser)) {
    if (apiKeyMatchesHash(apiKey, kept.apiKeyHash)) {
      // A copy per request: the own-user extras are attached to the object handed out.
      const user = { ...kept.user };
      if (options.withOwnUser) prefetchedOwnUser.set(user, kept.ownUser!);
      return user;
    }
    // The kept hash is the stored one (any change to it drops the entry), so
    // the key is wrong. The statement a miss runs is still run, so that a kept
    // email is not told apart from an unknown one by how long a refusal takes.
    await db.query(statement, parameters);
    return null;
  }
  const ticket = cache?.authTicket(db);
  const { rows } = await db.query<
    UserRow & { api_key_hash: string; cache_version: number } & Partial<OwnUserExtras> & { message?: MessageForViewer | null }
  >(statement, parameters);
  const row = rows[0];
  const matches = apiKeyMatchesHash(apiKey, row?.api_key_hash ?? ABSENT_KEY_HASH);
  if (row) cache?.observe(row.cache_version);
  if (!row || !matches || !row.is_active) return null;
  const { api_key_hash: apiKeyHash, cache_version: _version, max_message_id, profile, message, ...user } = row;
  const ownUser = options.withOwnUser ? { max_message_id: max_message_id ?? null, profile: profile ?? [] } : undefined;
  if (ownUser) prefetchedOwnUser.set(user, ownUser);
  if (withMessage !== undefined) prefetchedMessage.set(user, { id: withMessage, message: message ?? null });
  if (ticket) cache!.keepAuthenticated(db, email, ticket, { user: { ...user }, apiKeyHash }, ownUser);
  return user;
}

/** Replaces a user's API key; returns the new one. */
export async function rotateApiKey(db: Db, secret: Buffer, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await db.query('UPDATE users SET api_key_hash = $2, api_key_sealed = $3 WHERE id = $1', [userId, hashApiKey(apiKey), seal(secret, apiKey)]);
  return apiKey;
}

export type FetchApiKeyResult =
  | { ok: true; apiKey: string; email: string; userId: number }
  | { ok: false; reason: 'rate_limited' | 'invalid_credentials' | 'deactivated' };

export interface LoginLimits {
  loginFailureLimit: number;
  loginFailureWindowSeconds: number;
  /** Failures allowed per client address, whatever the usernames; omitted: no such limit. */
  loginFailureLimitPerAddress?: number;
}

/** Where and when the attempt happens; the defaults suit callers without a request (scripts, tests). */
export interface LoginContext {
  clientAddress?: string | null;
  now?: number;
}

/**
 * Seconds until another attempt is allowed (0: allowed now): a limit is hit
 * once its failures within the window reach it, and lifts when the oldest
 * of them leaves the window.
 */
export async function loginRetryAfter(db: Db, attempt: LoginAttempt, limits: LoginLimits, now: number): Promise<number> {
  const window = limits.loginFailureWindowSeconds;
  const { byUsername, byAddress } = await recentFailedLogins(db, attempt, window, now);
  const waits = [
    byUsername.count >= limits.loginFailureLimit ? byUsername.oldestAt! + window - now : 0,
    limits.loginFailureLimitPerAddress !== undefined && byAddress.count >= limits.loginFailureLimitPerAddress
      ? byAddress.oldestAt! + window - now
      : 0,
  ];
  return Math.max(0, ...waits.map((wait) => (wait > 0 ? Math.max(1, wait) : 0)));
}

/**
 * Records the attempt as a failure before its password is checked, unless a
 * limit is already hit (then null). Checking and recording happen under one
 * lock, so attempts sent all at once count each other and at most the limit
 * of them reach the password check.
 */
async function reserveLoginAttempt(db: Db, attempt: LoginAttempt, limits: LoginLimits, now: number): Promise<number | null> {
  return db.transaction(async (tx) => {
    await lockLoginAttempts(tx);
    if ((await loginRetryAfter(tx, attempt, limits, now)) > 0) return null;
    return recordFailedLoginAttempt(tx, attempt, now);
  });
}

let absentPasswordHash: Promise<string> | undefined;

/**
 * fetch_api_key: checks the password and returns the user's existing key,
 * unsealed with the server secret. A key sealed with a lost or replaced
 * secret cannot be recovered, so it is rotated and the new one returned.
 * Wrong passwords count towards a per-username limit and, when the client's
 * address is known, a per-address limit; an attempt counts as wrong from the
 * start until its password proves right. A successful login is recorded
 * (the first one of an imported or API-created account resets date_joined).
 */
export async function fetchApiKey(
  db: Db,
  secret: Buffer,
  username: string,
  password: string,
  limits: LoginLimits,
  context: LoginContext = {},
): Promise<FetchApiKeyResult> {
  const now = context.now ?? nowSeconds();
  const attempt = { username, clientAddress: context.clientAddress ?? null };
  const reserved = await reserveLoginAttempt(db, attempt, limits, now);
  if (reserved === null) return { ok: false, reason: 'rate_limited' };
  const { rows } = await db.query<{ id: number; email: string; is_active: boolean; password_hash: string | null; api_key_sealed: string }>(
    `SELECT id, email, is_active, password_hash, api_key_sealed FROM users
     WHERE lower(delivery_email) = lower($1) OR lower(email) = lower($1)
     ORDER BY (lower(delivery_email) = lower($1)) DESC LIMIT 1`,
    [username],
  );
  const row = rows[0];
  absentPasswordHash ??= hashPassword('');
  // Unknown users and passwordless accounts pay for one scrypt run too.
  const valid = await verifyPassword(password, row?.password_hash ?? (await absentPasswordHash));
  if (!row || row.password_hash === null || !valid) return { ok: false, reason: 'invalid_credentials' };
  await forgetFailedLoginAttempt(db, reserved);
  if (!row.is_active) return { ok: false, reason: 'deactivated' };
  const apiKey = unseal(secret, row.api_key_sealed) ?? (await rotateApiKey(db, secret, row.id));
  await recordLogin(db, row.id, now);
  return { ok: true, apiKey, email: row.email, userId: row.id };
}
