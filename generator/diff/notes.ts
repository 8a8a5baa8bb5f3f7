/** Feature-level notes as the diff sees them: the levels a place names, and what changed in its notes. */
import type { Change, VersionNotes } from '../model/types.js';

export type Notes = Partial<VersionNotes> | undefined;

/** Every level a place names, through `x-feature-level` or `x-changes`. */
export function levelsOf(notes: Notes): number[] {
  if (!notes) return [];
  return [...(notes.featureLevel === undefined ? [] : [notes.featureLevel]), ...(notes.changes ?? []).map((c) => c.level)];
}

/** The highest level named by any of `chain` (a place and its enclosing places), or null. */
export function highestLevel(chain: readonly Notes[]): number | null {
  const levels = chain.flatMap(levelsOf);
  return levels.length === 0 ? null : Math.max(...levels);
}

/** Notes that `head` has and `base` has not, and the reverse (`x-feature-level` counts as a note "added"). */
export function noteDifferences(base: Notes, head: Notes): { added: Change[]; removed: Change[] } {
  const list = (notes: Notes): Change[] => {
    const changes = [...(notes?.changes ?? [])];
    const level = notes?.featureLevel;
    if (level !== undefined && !changes.some((c) => c.level === level)) changes.unshift({ level, change: 'Added.' });
    return changes;
  };
  const key = (c: Change): string => `${c.level}\u0000${c.change}`;
  const before = list(base);
  const after = list(head);
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  return {
    added: after.filter((c) => !beforeKeys.has(key(c))),
    removed: before.filter((c) => !afterKeys.has(key(c))),
  };
}
