import { nowSeconds, type Db } from './db.js';
import { setRoleGroupMembership } from './groups.js';
import type { Role, UserRow } from './rows.js';

/** Every user column but the secrets. */
export const USER_COLUMNS = `id, email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, is_active,
  is_imported_stub, timezone, avatar_version, date_joined, awaiting_first_login, last_login_at, presence_enabled,
  can_change_user_emails, (videocall_token IS NOT NULL) AS has_videocall_token`;

export async function getUserById(db: Db, id: number): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** By API email, case-insensitively. */
export async function getUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
  return rows[0] ?? null;
}

/** The given users that exist, in ascending id order. */
export async function getUsersByIds(db: Db, ids: readonly number[]): Promise<UserRow[]> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = ANY ($1::integer[]) ORDER BY id`, [ids]);
  return rows;
}

export interface NewUser {
  id?: number;
  email: string;
  /** Defaults to email. */
  deliveryEmail?: string;
  fullName: string;
  role: Role;
  bot?: { type: 'generic' | 'incoming_webhook' | 'outgoing_webhook' | 'embedded' | 'system'; ownerId: number | null };
  isImportedStub?: boolean;
  timezone?: string;
  /** Imported or API-created accounts: date_joined moves to the first login. */
  awaitingFirstLogin?: boolean;
  dateJoined?: number;
  canChangeUserEmails?: boolean;
  videocallToken?: string | null;
  /** From server/auth newCredentials(). */
  credentials: { passwordHash: string | null; apiKeyHash: string; apiKeySealed: string };
}

/** Inserts the user and its role's system-group memberships; returns the id. */
export async function insertUser(tx: Db, user: NewUser): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO users (id, email, delivery_email, full_name, role, is_bot, bot_type, bot_owner_id, is_imported_stub,
       timezone, date_joined, awaiting_first_login, can_change_user_emails, videocall_token, password_hash,
       api_key_hash, api_key_sealed)
     VALUES (COALESCE($1, nextval(pg_get_serial_sequence('users', 'id'))), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
       $12, $13, $14, $15, $16, $17)
     RETURNING id`,
    [
      user.id ?? null,
      user.email,
      user.deliveryEmail ?? user.email,
      user.fullName,
      user.role,
      user.bot !== undefined,
      user.bot?.type ?? null,
      user.bot?.ownerId ?? null,
      user.isImportedStub ?? false,
      user.timezone ?? '',
      user.dateJoined ?? nowSeconds(),
      user.awaitingFirstLogin ?? false,
      user.canChangeUserEmails ?? false,
      user.videocallToken ?? null,
      user.credentials.passwordHash,
      user.credentials.apiKeyHash,
      user.credentials.apiKeySealed,
    ],
  );
  const id = rows[0]!.id;
  await setRoleGroupMembership(tx, id, user.role);
  return id;
}

/** Changes the role and the system-group memberships that follow from it. */
export async function setUserRole(tx: Db, userId: number, role: Role): Promise<void> {
  await tx.query('UPDATE users SET role = $2 WHERE id = $1', [userId, role]);
  await setRoleGroupMembership(tx, userId, role);
}

/** Active owners, for the rule that the only owner keeps the role. */
export async function countActiveOwners(db: Db): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    'SELECT count(*)::integer AS count FROM users WHERE role = 100 AND is_active AND NOT is_bot',
  );
  return rows[0]!.count;
}

/** Notes a successful login; the first one of an imported or API-created account also resets date_joined. */
export async function recordLogin(db: Db, userId: number, at: number = nowSeconds()): Promise<void> {
  await db.query(
    `UPDATE users SET last_login_at = $2,
       date_joined = CASE WHEN awaiting_first_login THEN $2 ELSE date_joined END,
       awaiting_first_login = false
     WHERE id = $1`,
    [userId, at],
  );
}

export async function setPresenceEnabled(db: Db, userId: number, enabled: boolean): Promise<void> {
  await db.query('UPDATE users SET presence_enabled = $2 WHERE id = $1', [userId, enabled]);
}

/** The user whose API or real email address this is, case-insensitively. */
export async function getUserByAnyEmail(db: Db, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1) OR lower(delivery_email) = lower($1) LIMIT 1`,
    [email],
  );
  return rows[0] ?? null;
}

/** Locks the active human owners until the transaction ends, so two demotions cannot both pass the last-owner rule. */
export async function lockActiveOwnerIds(tx: Db): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>('SELECT id FROM users WHERE role = 100 AND is_active AND NOT is_bot ORDER BY id FOR UPDATE');
  return rows.map((row) => row.id);
}

export async function setFullName(db: Db, userId: number, fullName: string): Promise<void> {
  await db.query('UPDATE users SET full_name = $2 WHERE id = $1', [userId, fullName]);
}

/** Changes both the API and the real email address. */
export async function setEmail(db: Db, userId: number, email: string): Promise<void> {
  await db.query('UPDATE users SET email = $2, delivery_email = $2 WHERE id = $1', [userId, email]);
}

/** Notes that the user actively used a client (usage statistics). */
export async function recordUserInput(db: Db, userId: number, at: number): Promise<void> {
  await db.query('UPDATE users SET last_user_input_at = $2 WHERE id = $1', [userId, at]);
}
