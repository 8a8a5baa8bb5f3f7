/**
 * Changes to a user group's direct subgroups. All checks run against the
 * state at the start of the request, except the cycle check, which runs
 * after the removals (a removal may break the path an addition would close).
 * Any refusal changes nothing. System groups keep the subgroups that encode
 * the role hierarchy: their own subgroups cannot change, though they may be
 * added to, or removed from, other groups. Anonymous groups (the values of
 * group settings) are not addressable by id.
 */
import { ApiError } from '../errors.js';
import type { Db } from '../store/db.js';
import {
  addSubgroups,
  directSubgroupIds,
  getGroup,
  getGroupsByIds,
  lockSubgroupGraph,
  removeSubgroups,
  subgroupsThatWouldCycle,
} from '../store/groups.js';

export interface SubgroupChange {
  add: number[];
  delete: number[];
}

export async function changeSubgroups(tx: Db, groupId: number, change: SubgroupChange): Promise<void> {
  const add = [...new Set(change.add)];
  const remove = [...new Set(change.delete)];
  await lockSubgroupGraph(tx);
  const group = await getGroup(tx, groupId);
  if (!group || group.name === null) throw invalidGroup(groupId);
  if (group.is_system_group) throw new ApiError('BAD_REQUEST', 'The subgroups of a system group cannot be changed');
  const named = new Set((await getGroupsByIds(tx, [...add, ...remove])).filter((g) => g.name !== null).map((g) => g.id));
  const unknown = [...add, ...remove].find((id) => !named.has(id));
  if (unknown !== undefined) throw invalidGroup(unknown);
  const both = add.find((id) => remove.includes(id));
  if (both !== undefined) throw new ApiError('BAD_REQUEST', `Group ${both} cannot be both added and removed`);
  const current = new Set(await directSubgroupIds(tx, groupId));
  const present = add.find((id) => current.has(id));
  if (present !== undefined) throw new ApiError('BAD_REQUEST', `Group ${present} is already a subgroup of this group`);
  const absent = remove.find((id) => !current.has(id));
  if (absent !== undefined) throw new ApiError('BAD_REQUEST', `Group ${absent} is not a subgroup of this group`);
  if (remove.length > 0) await removeSubgroups(tx, groupId, remove);
  const cycling = await subgroupsThatWouldCycle(tx, groupId, add);
  if (cycling.length > 0) {
    throw new ApiError('BAD_REQUEST', `Adding group ${cycling[0]} as a subgroup of group ${groupId} would create a cycle`);
  }
  if (add.length > 0) await addSubgroups(tx, groupId, add);
}

function invalidGroup(id: number): ApiError {
  return new ApiError('BAD_REQUEST', `Invalid user group ID ${id}`);
}
