/**
 * Sending invitations. Checks run in this order, and any failure before the
 * per-address step sends nothing: permission to invite (the organization's
 * can_invite_users_group; bots never invite), at least one address, the
 * role ceiling, the channels, the groups, the expiry. Then each address is
 * checked on its own; the good ones are invited and the others reported
 * with INVITATION_FAILED.
 */
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import { getChannel } from '../store/channels.js';
import type { Db } from '../store/db.js';
import { getGroup, isUserInGroup } from '../store/groups.js';
import { insertInvitation } from '../store/invitations.js';
import { getRealm, listRealmDomains } from '../store/realm.js';
import type { ChannelRow, RealmRow, Role, UserRow } from '../store/rows.js';
import { canAccessChannelContent, canAccessChannelMetadata, canAdministerChannel } from './access.js';
import { isDbId } from './ids.js';
import { isAdmin, isRoleAtMost } from './roles.js';
import { newEmailProblem } from './users.js';

export interface InviteRequest {
  invitee_emails: string;
  /** undefined: the server's default; null: never expires. */
  invite_expires_in_minutes?: number | null;
  invite_as?: Role;
  stream_ids: number[];
  group_ids?: number[];
  include_realm_default_subscriptions?: boolean;
  notify_referrer_on_join?: boolean;
  welcome_message_custom_text?: string | null;
}

const bad = (msg: string): never => {
  throw new ApiError('BAD_REQUEST', msg);
};

/** Addresses separated by commas or newlines, `Name <address>` accepted, duplicates dropped. */
export function parseInviteeEmails(text: string): string[] {
  const seen = new Map<string, string>();
  for (const part of text.split(/[,\n]/)) {
    const email = (/<([^<>]*)>/.exec(part)?.[1] ?? part).trim();
    if (email !== '' && !seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}

export async function sendInvites(
  { db, config, now }: Pick<Services, 'db' | 'config' | 'now'>,
  caller: UserRow,
  request: InviteRequest,
): Promise<void> {
  const realm = await getRealm(db);
  if (!realm) throw new Error('the organization does not exist');
  if (caller.is_bot || !(await isUserInGroup(db, caller.id, realm.can_invite_users_group_id))) bad('Insufficient permission');
  const emails = parseInviteeEmails(request.invitee_emails);
  if (emails.length === 0) bad('You must specify at least one email address');
  const inviteAs = request.invite_as ?? 400;
  if (!isRoleAtMost(inviteAs, caller.role)) bad('You cannot invite users with a role above your own');
  const channelIds = await checkChannels(db, caller, realm, request.stream_ids);
  const groupIds = await checkGroups(db, caller, realm, request.group_ids ?? []);
  const createdAt = now();
  const expiresAt = expiry(request.invite_expires_in_minutes === undefined ? config.invitationLinkValidityMinutes : request.invite_expires_in_minutes, createdAt);

  const domains = await listRealmDomains(db);
  const errors: [string, string, boolean][] = [];
  const invitees: string[] = [];
  for (const email of emails) {
    const problem = await newEmailProblem(db, email, domains);
    if (problem) errors.push([email, problem.reason, problem.deactivated]);
    else invitees.push(email);
  }
  await db.transaction(async (tx) => {
    for (const email of invitees) {
      await insertInvitation(tx, {
        inviterId: caller.id,
        email,
        inviteAs,
        createdAt,
        expiresAt,
        includeRealmDefaultSubscriptions: request.include_realm_default_subscriptions ?? false,
        notifyReferrerOnJoin: request.notify_referrer_on_join ?? true,
        // Only administrators choose the welcome text; for anyone else the organization's default applies.
        welcomeMessageCustomText: isAdmin(caller) ? (request.welcome_message_custom_text ?? null) : null,
        channelIds,
        groupIds,
      });
    }
  });
  if (errors.length > 0) {
    const sent = invitees.length > 0;
    throw new ApiError(
      'INVITATION_FAILED',
      sent ? 'Some addresses could not be invited; everyone else was invited.' : 'None of the addresses could be invited.',
      { errors, daily_limit_reached: false, license_limit_reached: false, sent_invitations: sent },
    );
  }
}

/**
 * Each channel must exist, be active and visible to the caller; each that
 * is not a default channel must also be one the caller may add subscribers to.
 */
async function checkChannels(db: Db, caller: UserRow, realm: RealmRow, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const channels: ChannelRow[] = [];
  for (const id of unique) {
    const channel = isDbId(id) ? await getChannel(db, id) : null;
    if (!channel || channel.is_archived || !(await canAccessChannelMetadata(db, caller, channel))) {
      bad(`Invalid channel ID ${id}; no invitations were sent`);
    }
    channels.push(channel!);
  }
  for (const channel of channels) {
    if (!channel.is_default && !(await canAddSubscribers(db, caller, realm, channel))) {
      bad('You do not have permission to subscribe other users to channels');
    }
  }
  return unique;
}

/** Administrators (of the organization or channel) and the channel's group always; the organization's group with content access. */
async function canAddSubscribers(db: Db, caller: UserRow, realm: RealmRow, channel: ChannelRow): Promise<boolean> {
  if (await canAdministerChannel(db, caller, channel)) return true;
  if (await isUserInGroup(db, caller.id, channel.can_add_subscribers_group_id)) return true;
  return (await isUserInGroup(db, caller.id, realm.can_add_subscribers_group_id)) && (await canAccessChannelContent(db, caller, channel));
}

/** Each group must be an active named non-system group the caller may add members to. */
async function checkGroups(db: Db, caller: UserRow, realm: RealmRow, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    const group = isDbId(id) ? await getGroup(db, id) : null;
    if (!group || group.name === null || group.is_system_group || group.deactivated) bad(`Invalid user group ID ${id}`);
    const settings = [group!.can_add_members_group_id!, group!.can_manage_group_id!, realm.can_manage_all_groups_id];
    let allowed = false;
    for (const setting of settings) allowed ||= await isUserInGroup(db, caller.id, setting);
    if (!allowed) bad(`You do not have permission to add members to the user group ${group!.name}`);
  }
  return unique;
}

/** The expiry time, or null for never; the limit keeps the time a safe integer. */
function expiry(minutes: number | null, createdAt: number): number | null {
  if (minutes === null) return null;
  if (minutes <= 0) bad('invite_expires_in_minutes must be positive');
  const expiresAt = createdAt + minutes * 60;
  if (!Number.isSafeInteger(expiresAt)) bad('invite_expires_in_minutes is too large');
  return expiresAt;
}
