/**
 * User accounts: the own-user view, email address rules, and the rules of
 * updating another user (administrators only; see the spec of update-user).
 */
import { createHash } from 'node:crypto';
import type { HandlerResult } from '../../generated/server.js';
import type { GetOwnUserResponse } from '../../generated/types.js';
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import { listRealmDomains } from '../store/realm.js';
import type { RealmDomainRow, Role, UserRow } from '../store/rows.js';
import { getUserByAnyEmail, getUserById, lockActiveOwnerIds, setEmail, setFullName, setUserRole } from '../store/users.js';
import { ownUserExtras, removeProfileValue, setProfileValue, type OwnUserExtras } from '../store/profile.js';
import { isDbId } from './ids.js';
import { profileData, profileWrites, type ProfileInput, type ProfileWrite } from './profile-fields.js';
import { isAdmin, isOwner, requireAdmin, ROLE } from './roles.js';

/** Full names: the seed gives no limit; 100 code points, as long-standing clients expect. */
export const FULL_NAME_LIMIT = 100;
const EMAIL_LIMIT = 254;

/**
 * The avatar is the Gravatar of the API email, never of the real address
 * (other users may not see it); avatar_version busts caches when it changes.
 */
export function avatarUrl(user: Pick<UserRow, 'email' | 'avatar_version'>): string {
  const hash = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
}

/** ISO 8601 in UTC with an explicit offset, e.g. `2025-03-03T09:15:00+00:00`. */
export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** GET /users/me: the caller's row and, when authentication read them too, the extras (else one statement). */
export async function ownUser(db: Db, user: UserRow, prefetched?: OwnUserExtras): Promise<HandlerResult<GetOwnUserResponse>> {
  const extras = prefetched ?? (await ownUserExtras(db, user.id));
  const base = {
    user_id: user.id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    avatar_url: avatarUrl(user),
    avatar_version: user.avatar_version,
    role: user.role,
    is_admin: isAdmin(user),
    is_owner: isOwner(user),
    is_guest: user.role === ROLE.guest,
    is_bot: user.is_bot,
    is_active: user.is_active,
    is_imported_stub: user.is_imported_stub,
    timezone: user.timezone,
    date_joined: isoTime(user.date_joined),
    // -1 before the first message, as there is no message id to give.
    max_message_id: extras.max_message_id ?? -1,
  };
  if (user.is_bot) return base;
  return { ...base, profile_data: await profileData(db, extras.profile) };
}

const EMAIL_SHAPE = /^[^\s@",;:<>()[\]\\]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/i;

export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_LIMIT && EMAIL_SHAPE.test(email);
}

/**
 * Whether the organization accepts accounts with this address: its domain
 * is an allowed domain, or a subdomain of one that allows subdomains. An
 * organization without allowed domains accepts every domain.
 */
export function isEmailDomainAllowed(email: string, domains: readonly RealmDomainRow[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.some((allowed) => domain === allowed.domain || (allowed.allow_subdomains && domain.endsWith(`.${allowed.domain}`)));
}

/** Why an address cannot be given to a new or changed account, or null when it can. */
export interface EmailProblem {
  reason: string;
  /** The address belongs to a deactivated account. */
  deactivated: boolean;
}

export async function newEmailProblem(db: Db, email: string, domains: readonly RealmDomainRow[]): Promise<EmailProblem | null> {
  if (!isValidEmail(email)) return { reason: 'Invalid address.', deactivated: false };
  if (!isEmailDomainAllowed(email, domains)) return { reason: 'Outside your domain.', deactivated: false };
  const existing = await getUserByAnyEmail(db, email);
  if (existing) {
    return existing.is_active
      ? { reason: 'Already has an account.', deactivated: false }
      : { reason: 'Account has been deactivated.', deactivated: true };
  }
  return null;
}

export interface UserUpdateRequest {
  user_id: number;
  full_name?: string;
  role?: Role;
  profile_data?: { id: number; value: ProfileInput }[];
  new_email?: string;
}

/** A checked update: only the fields that change. */
export interface UserUpdate {
  target: UserRow;
  fullName?: string;
  role?: Role;
  profile: ProfileWrite[];
  email?: string;
}

const bad = (msg: string): never => {
  throw new ApiError('BAD_REQUEST', msg);
};

/** Checks every rule before anything changes; the last-owner rule is checked again under lock when applying. */
export async function planUserUpdate(db: Db, caller: UserRow, request: UserUpdateRequest): Promise<UserUpdate> {
  requireAdmin(caller, 'update users');
  const target = isDbId(request.user_id) ? await getUserById(db, request.user_id) : null;
  // The server's own bots are not part of the organization's users.
  if (!target || target.bot_type === 'system') return bad('No such user');
  const update: UserUpdate = { target, profile: [] };
  if (request.full_name !== undefined) update.fullName = checkFullName(request.full_name);
  if (request.role !== undefined && request.role !== target.role) update.role = checkRole(caller, target, request.role);
  if (request.profile_data !== undefined) {
    if (target.is_bot) bad('Bots have no custom profile fields');
    update.profile = await profileWrites(db, request.profile_data);
  }
  if (request.new_email !== undefined) update.email = await checkNewEmail(db, caller, target, request.new_email.trim());
  return update;
}

function checkFullName(value: string): string {
  const name = value.trim();
  if (name === '') bad('Name cannot be empty');
  if ([...name].length > FULL_NAME_LIMIT) bad(`Name is too long (limit ${FULL_NAME_LIMIT} characters)`);
  if (/\p{Cc}/u.test(name)) bad('Name contains invalid characters');
  return name;
}

function checkRole(caller: UserRow, target: UserRow, role: Role): Role {
  if ((role === ROLE.owner || target.role === ROLE.owner) && !isOwner(caller)) {
    bad('Only organization owners can add or remove the owner role');
  }
  if (target.role === ROLE.guest && role <= ROLE.admin) bad('Guests cannot be organization administrators');
  return role;
}

async function checkNewEmail(db: Db, caller: UserRow, target: UserRow, email: string): Promise<string> {
  if (!isOwner(caller) || !caller.can_change_user_emails) {
    bad('Changing email addresses needs an owner with the can_change_user_emails permission');
  }
  if (!isValidEmail(email)) bad('Invalid email address');
  if (!isEmailDomainAllowed(email, await listRealmDomains(db))) bad("The email address is outside the organization's allowed domains");
  const holder = await getUserByAnyEmail(db, email);
  if (holder && holder.id !== target.id) bad('The email address is already in use');
  return email;
}

/** Applies a checked update in one transaction. */
export async function applyUserUpdate(db: Db, update: UserUpdate): Promise<void> {
  const { target } = update;
  await db.transaction(async (tx) => {
    if (update.role !== undefined) {
      const owners = await lockActiveOwnerIds(tx);
      if (owners.length === 1 && owners[0] === target.id) bad('The organization must keep at least one owner');
      await setUserRole(tx, target.id, update.role);
    }
    if (update.fullName !== undefined) await setFullName(tx, target.id, update.fullName);
    if (update.email !== undefined) await setEmail(tx, target.id, update.email);
    for (const write of update.profile) {
      if (write.value === null) await removeProfileValue(tx, target.id, write.fieldId);
      else await setProfileValue(tx, target.id, write.fieldId, write.value, write.renderedValue);
    }
  });
}
