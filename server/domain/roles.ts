/** Role predicates shared by every handler; roles are the seed's integer codes (lower is more privileged). */
import { ApiError } from '../errors.js';
import type { Role, UserRow } from '../store/rows.js';

export const ROLE = { owner: 100, admin: 200, moderator: 300, member: 400, guest: 600 } as const satisfies Record<string, Role>;

export const isOwner = (user: Pick<UserRow, 'role'>): boolean => user.role === ROLE.owner;
/** Owners are administrators too. */
export const isAdmin = (user: Pick<UserRow, 'role'>): boolean => user.role <= ROLE.admin;
export const isModerator = (user: Pick<UserRow, 'role'>): boolean => user.role <= ROLE.moderator;
export const isGuest = (user: Pick<UserRow, 'role'>): boolean => user.role === ROLE.guest;

/** Whether `role` is equal to or more restricted than `than` (a larger code). */
export const isRoleAtMost = (role: Role, than: Role): boolean => role >= than;

export function requireAdmin(user: Pick<UserRow, 'role'>, action: string): void {
  if (!isAdmin(user)) throw new ApiError('BAD_REQUEST', `Must be an organization administrator to ${action}`);
}

export function requireOwner(user: Pick<UserRow, 'role'>, action: string): void {
  if (!isOwner(user)) throw new ApiError('BAD_REQUEST', `Must be an organization owner to ${action}`);
}
