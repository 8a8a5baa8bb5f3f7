/**
 * Presence: each client of a user reports `active` or `idle`; readers get
 * the other users' presence in the modern format (by user id) or the legacy
 * one (by email, per client). Decisions where the seed is silent:
 *
 * - A report changes the stored row (and takes a new update id) only when
 *   the client's status changes or the last stored report is at least
 *   PRESENCE_MIN_UPDATE_SECONDS old, so frequent pings do not look like news.
 * - Bots and the caller itself are not listed.
 * - `active_timestamp` of a user who never reported `active` is 0.
 * - With CAN_ACCESS_ALL_USERS_GROUP_LIMITS_PRESENCE, guests see only users
 *   they share a channel subscription or a direct-message conversation with.
 * - The client name is the first word of the User-Agent header (`API` without one).
 * - With `ping_only`, `presence_last_update_id` repeats the `last_update_id`
 *   sent (-1 without one): no data was read, so the client resumes where it was.
 */
import type { FastifyRequest } from 'fastify';
import type { HandlerResult } from '../../generated/server.js';
import type { UpdatePresenceResponse } from '../../generated/types.js';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';
import type { Db } from '../store/db.js';
import { lastPresenceUpdateId, lockPresence, presenceListing, recordPresence, type PresenceListingRow } from '../store/presence.js';
import type { PresenceRow, UserRow } from '../store/rows.js';
import { recordUserInput } from '../store/users.js';
import { isGuest } from './roles.js';

export const PRESENCE_MIN_UPDATE_SECONDS = 60;
const DAY = 86_400;
// Beyond a century of history there is nothing more to find; it also keeps the arithmetic in range.
const MAX_HISTORY_DAYS = 36_500;

type Status = 'active' | 'idle';

export interface PresenceRequest {
  status: Status;
  last_update_id?: number;
  history_limit_days?: number;
  ping_only?: boolean;
  new_user_input?: boolean;
  slim_presence?: boolean;
}

export function clientName(request: FastifyRequest): string {
  const agent = request.headers['user-agent'] ?? '';
  const name = /^[A-Za-z0-9_.-]{1,40}/.exec(agent.trim())?.[0];
  // `aggregated` is taken by the legacy format's summary entry.
  return name === undefined || name === 'aggregated' ? 'API' : name;
}

const statusOf = (row: Pick<PresenceRow, 'last_active_at' | 'last_connected_at'>): Status =>
  row.last_active_at !== null && row.last_active_at >= row.last_connected_at ? 'active' : 'idle';

/** Stores the caller's report for this client (see the rule at the top of the file). */
export async function reportPresence(db: Db, user: UserRow, client: string, request: PresenceRequest, now: number): Promise<void> {
  // Checked before anything is stored, although only reading uses it.
  if ((request.history_limit_days ?? 0) < 0) throw new ApiError('BAD_REQUEST', 'history_limit_days must not be negative');
  await db.transaction(async (tx) => {
    const current = await lockPresence(tx, user.id, client);
    const changed = !current || statusOf(current) !== request.status || now - current.last_connected_at >= PRESENCE_MIN_UPDATE_SECONDS;
    if (changed) await recordPresence(tx, user.id, client, request.status, now);
    if (request.new_user_input) await recordUserInput(tx, user.id, now);
  });
}

export async function presenceResponse(
  { db, config, now }: Pick<Services, 'db' | 'config' | 'now'>,
  user: UserRow,
  request: PresenceRequest,
  serverTimestamp: number,
): Promise<HandlerResult<UpdatePresenceResponse>> {
  const sent = request.last_update_id;
  const historyDays = request.history_limit_days ?? 14;
  // Every id up to this one is committed (see recordPresence), so nothing up to it can be missed later.
  const newest = await lastPresenceUpdateId(db);
  const incremental = sent !== undefined && sent > 0;
  const rows = await presenceListing(db, {
    afterUpdateId: incremental ? Math.min(sent, Number.MAX_SAFE_INTEGER) : -1,
    since: incremental ? 0 : now() - Math.min(historyDays, MAX_HISTORY_DAYS) * DAY,
    viewerId: user.id,
    onlyUsersViewerShares: config.canAccessAllUsersGroupLimitsPresence && isGuest(user),
  });
  const modern = sent !== undefined || request.slim_presence === true;
  const lastUpdateId = sent !== undefined ? Math.max(sent, newest) : rows.length > 0 ? newest : -1;
  return {
    presence_last_update_id: lastUpdateId,
    server_timestamp: serverTimestamp,
    presences: modern ? modernFormat(rows) : legacyFormat(rows),
  };
}

function byUser(rows: readonly PresenceListingRow[]): PresenceListingRow[][] {
  const groups = new Map<number, PresenceListingRow[]>();
  for (const row of rows) groups.set(row.user_id, [...(groups.get(row.user_id) ?? []), row]);
  return [...groups.values()];
}

function modernFormat(rows: readonly PresenceListingRow[]): Record<string, { active_timestamp: number; idle_timestamp: number }> {
  const result: Record<string, { active_timestamp: number; idle_timestamp: number }> = {};
  for (const clients of byUser(rows)) {
    result[String(clients[0]!.user_id)] = {
      active_timestamp: Math.max(0, ...clients.map((row) => row.last_active_at ?? 0)),
      idle_timestamp: Math.max(...clients.map((row) => row.last_connected_at)),
    };
  }
  return result;
}

interface LegacyClient {
  client: string;
  status: Status;
  timestamp: number;
  pushable: boolean;
}

type LegacyEntry = { aggregated: Omit<LegacyClient, 'pushable'> } & Record<string, LegacyClient | Omit<LegacyClient, 'pushable'>>;

/** Aggregated: the latest `active` client if any is active, else the latest client. No client registers for push here. */
function legacyFormat(rows: readonly PresenceListingRow[]): Record<string, LegacyEntry> {
  const result: Record<string, LegacyEntry> = {};
  for (const clients of byUser(rows)) {
    const entries = clients.map((row): LegacyClient => ({ client: row.client, status: statusOf(row), timestamp: row.last_connected_at, pushable: false }));
    const candidates = entries.some((entry) => entry.status === 'active') ? entries.filter((entry) => entry.status === 'active') : entries;
    const latest = candidates.reduce((a, b) => (b.timestamp > a.timestamp ? b : a));
    const entry = { aggregated: { client: latest.client, status: latest.status, timestamp: latest.timestamp } } as LegacyEntry;
    for (const client of entries) entry[client.client] = client;
    result[clients[0]!.email] = entry;
  }
  return result;
}

/** Server time with a fractional part: the clock's second plus the current millisecond. */
export function serverTimestamp(nowSeconds: number): number {
  return nowSeconds + (Date.now() % 1000) / 1000;
}
