import { SharedCache } from './cache.js';
import { nowSeconds, type Db } from './db.js';
import type { Role, UserGroupRow } from './rows.js';

/**
 * A group setting: the id of a named group, or an anonymous set of users and
 * groups. Anonymous values are stored as user_groups rows without a name, so
 * every setting column is one foreign key and one membership query serves both.
 */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

export const SYSTEM_GROUPS = [
  'role:internet',
  'role:everyone',
  'role:members',
  'role:fullmembers',
  'role:moderators',
  'role:administrators',
  'role:owners',
  'role:nobody',
] as const;
export type SystemGroupName = (typeof SYSTEM_GROUPS)[number];

/** The system groups a user of each role is a direct member of; larger roles reach it through subgroups. */
export const ROLE_GROUPS: Record<Role, SystemGroupName[]> = {
  100: ['role:owners'],
  200: ['role:administrators'],
  300: ['role:moderators'],
  400: ['role:members', 'role:fullmembers'],
  600: ['role:everyone'],
};

export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_send_message_group',
  'can_create_topic_group',
] as const;
export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

export const REALM_GROUP_SETTINGS = [
  'can_create_web_public_channel_group',
  'can_invite_users_group',
  'can_add_subscribers_group',
  'can_manage_all_groups',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
] as const;
export type RealmGroupSetting = (typeof REALM_GROUP_SETTINGS)[number];

// Every column that may point at an anonymous group.
const SETTING_REFERENCES = [
  ...CHANNEL_GROUP_SETTINGS.map((setting) => ['channels', `${setting}_id`]),
  ...REALM_GROUP_SETTINGS.map((setting) => ['realm', `${setting}_id`]),
  ['user_groups', 'can_manage_group_id'],
  ['user_groups', 'can_add_members_group_id'],
  ['user_groups', 'can_remove_members_group_id'],
] as const;

const REACHABLE_GROUPS = `WITH RECURSIVE reach(id) AS (
    SELECT $1::integer
    UNION
    SELECT s.subgroup_id FROM user_group_subgroups s JOIN reach r ON s.group_id = r.id
  )`;

export async function getGroup(db: Db, id: number): Promise<UserGroupRow | null> {
  const { rows } = await db.query<UserGroupRow>('SELECT * FROM user_groups WHERE id = $1', [id]);
  return rows[0] ?? null;
}

export async function systemGroupId(db: Db, name: SystemGroupName): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM user_groups WHERE is_system_group AND name = $1', [name]);
  if (!rows[0]) throw new Error(`system group ${name} is missing`);
  return rows[0].id;
}

/**
 * Whether an active user belongs to the group directly or through any depth
 * of subgroups. On the app's own handle, once authentication has read the
 * cache version, answered from the cached group graph (no statement).
 */
export async function isUserInGroup(db: Db, userId: number, groupId: number): Promise<boolean> {
  const graph = SharedCache.of(db)?.groupGraph(db);
  if (graph) return (await graph).contains(groupId, userId);
  const { rows } = await db.query<{ member: boolean }>(
    `${REACHABLE_GROUPS}
     SELECT EXISTS (
       SELECT 1 FROM user_group_members m JOIN reach r ON r.id = m.group_id JOIN users u ON u.id = m.user_id
       WHERE m.user_id = $2 AND u.is_active
     ) AS member`,
    [groupId, userId],
  );
  return rows[0]!.member;
}

/** Active users in the group, directly or through subgroups, ascending. */
export async function groupMemberIds(db: Db, groupId: number): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    `${REACHABLE_GROUPS}
     SELECT DISTINCT m.user_id FROM user_group_members m JOIN reach r ON r.id = m.group_id
     JOIN users u ON u.id = m.user_id WHERE u.is_active ORDER BY m.user_id`,
    [groupId],
  );
  return rows.map((row) => row.user_id);
}

export async function directMemberIds(db: Db, groupId: number): Promise<number[]> {
  const { rows } = await db.query<{ user_id: number }>(
    'SELECT m.user_id FROM user_group_members m JOIN users u ON u.id = m.user_id WHERE m.group_id = $1 AND u.is_active ORDER BY m.user_id',
    [groupId],
  );
  return rows.map((row) => row.user_id);
}

export async function directSubgroupIds(db: Db, groupId: number): Promise<number[]> {
  const { rows } = await db.query<{ subgroup_id: number }>(
    'SELECT subgroup_id FROM user_group_subgroups WHERE group_id = $1 ORDER BY subgroup_id',
    [groupId],
  );
  return rows.map((row) => row.subgroup_id);
}

/** Of the candidates, those that already contain `groupId` (or are it): adding them as subgroups would make a cycle. */
export async function subgroupsThatWouldCycle(db: Db, groupId: number, candidateIds: number[]): Promise<number[]> {
  const cycling: number[] = [];
  for (const candidate of candidateIds) {
    const { rows } = await db.query<{ found: boolean }>(
      `${REACHABLE_GROUPS} SELECT EXISTS (SELECT 1 FROM reach WHERE id = $2) AS found`,
      [candidate, groupId],
    );
    if (rows[0]!.found) cycling.push(candidate);
  }
  return cycling;
}

/** The API form of a stored setting: the named group's id, or the anonymous group's direct members and subgroups. */
export async function groupSettingValue(db: Db, groupId: number): Promise<GroupSettingValue> {
  const group = await getGroup(db, groupId);
  if (!group) throw new Error(`group setting points at missing group ${groupId}`);
  if (group.name !== null) return group.id;
  return { direct_members: await directMemberIds(db, groupId), direct_subgroups: await directSubgroupIds(db, groupId) };
}

export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const same = (x: number[], y: number[]) => {
    const left = [...new Set(x)].sort((m, n) => m - n);
    const right = [...new Set(y)].sort((m, n) => m - n);
    return left.length === right.length && left.every((value, index) => value === right[index]);
  };
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/** Stores a value and returns the group id to put in the setting column (a new anonymous group for an object). */
export async function storeGroupSettingValue(tx: Db, value: GroupSettingValue): Promise<number> {
  if (typeof value === 'number') {
    const group = await getGroup(tx, value);
    if (!group || group.name === null) throw new Error(`not a named user group: ${value}`);
    return value;
  }
  const { rows } = await tx.query<{ id: number }>('INSERT INTO user_groups (created_at) VALUES ($1) RETURNING id', [nowSeconds()]);
  const id = rows[0]!.id;
  await tx.query(
    'INSERT INTO user_group_members (group_id, user_id) SELECT $1, unnest($2::integer[]) ON CONFLICT DO NOTHING',
    [id, value.direct_members],
  );
  await tx.query(
    'INSERT INTO user_group_subgroups (group_id, subgroup_id) SELECT $1, unnest($2::integer[]) ON CONFLICT DO NOTHING',
    [id, value.direct_subgroups],
  );
  return id;
}

/** Deletes an anonymous group once no setting refers to it any more. */
export async function dropAnonymousGroupIfUnused(tx: Db, groupId: number): Promise<void> {
  const references = SETTING_REFERENCES.map(([table, column]) => `SELECT 1 FROM ${table} WHERE ${column} = $1`).join(' UNION ALL ');
  await tx.query(`DELETE FROM user_groups WHERE id = $1 AND name IS NULL AND NOT EXISTS (${references})`, [groupId]);
}

export async function setChannelGroupSetting(tx: Db, channelId: number, setting: ChannelGroupSetting, value: GroupSettingValue): Promise<void> {
  if (!CHANNEL_GROUP_SETTINGS.includes(setting)) throw new Error(`unknown channel group setting ${setting}`);
  const { rows } = await tx.query<{ previous: number }>(`SELECT ${setting}_id AS previous FROM channels WHERE id = $1 FOR UPDATE`, [channelId]);
  if (!rows[0]) throw new Error(`no channel ${channelId}`);
  const id = await storeGroupSettingValue(tx, value);
  await tx.query(`UPDATE channels SET ${setting}_id = $2 WHERE id = $1`, [channelId, id]);
  if (rows[0].previous !== id) await dropAnonymousGroupIfUnused(tx, rows[0].previous);
}

export async function setRealmGroupSetting(tx: Db, setting: RealmGroupSetting, value: GroupSettingValue): Promise<void> {
  if (!REALM_GROUP_SETTINGS.includes(setting)) throw new Error(`unknown organization group setting ${setting}`);
  const column = `${setting}_id`;
  const { rows } = await tx.query<{ previous: number }>(`SELECT ${column} AS previous FROM realm FOR UPDATE`);
  if (!rows[0]) throw new Error('the organization does not exist');
  const id = await storeGroupSettingValue(tx, value);
  await tx.query(`UPDATE realm SET ${column} = $1`, [id]);
  if (rows[0].previous !== id) await dropAnonymousGroupIfUnused(tx, rows[0].previous);
}

/** Makes the user a direct member of exactly the system groups of its role. */
export async function setRoleGroupMembership(tx: Db, userId: number, role: Role): Promise<void> {
  await tx.query(
    `DELETE FROM user_group_members WHERE user_id = $1
       AND group_id IN (SELECT id FROM user_groups WHERE is_system_group)`,
    [userId],
  );
  await tx.query(
    `INSERT INTO user_group_members (group_id, user_id)
     SELECT id, $1 FROM user_groups WHERE is_system_group AND name = ANY ($2::text[])`,
    [userId, ROLE_GROUPS[role]],
  );
}

/** The given groups that exist, ascending by id. */
export async function getGroupsByIds(db: Db, ids: readonly number[]): Promise<UserGroupRow[]> {
  const { rows } = await db.query<UserGroupRow>('SELECT * FROM user_groups WHERE id = ANY ($1::integer[]) ORDER BY id', [ids]);
  return rows;
}

/**
 * Serialises subgroup changes until the transaction ends, so two concurrent
 * requests cannot each pass the cycle check and together make a cycle.
 */
export async function lockSubgroupGraph(tx: Db): Promise<void> {
  await tx.query('LOCK TABLE user_group_subgroups IN SHARE ROW EXCLUSIVE MODE');
}

export async function addSubgroups(tx: Db, groupId: number, subgroupIds: readonly number[]): Promise<void> {
  await tx.query(
    'INSERT INTO user_group_subgroups (group_id, subgroup_id) SELECT $1, unnest($2::integer[]) ON CONFLICT DO NOTHING',
    [groupId, subgroupIds],
  );
}

export async function removeSubgroups(tx: Db, groupId: number, subgroupIds: readonly number[]): Promise<void> {
  await tx.query('DELETE FROM user_group_subgroups WHERE group_id = $1 AND subgroup_id = ANY ($2::integer[])', [groupId, subgroupIds]);
}
