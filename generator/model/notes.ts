/** Feature-level notes (`x-feature-level`, `x-changes`, `deprecated`, `x-unspecified`); shapes were checked at load. */
import type { RawNode } from './context.js';
import type { Change, VersionNotes } from './types.js';

export function versionNotes(node: RawNode): VersionNotes {
  const notes: VersionNotes = {
    changes: ((node['x-changes'] as Change[] | undefined) ?? []).map(({ level, change }) => ({ level, change })),
    deprecated: node.deprecated === true,
    unspecified: typeof node['x-unspecified'] === 'string' ? [node['x-unspecified']] : [],
  };
  if (typeof node['x-feature-level'] === 'number') notes.featureLevel = node['x-feature-level'];
  return notes;
}

/** Only the notes a node actually carries, for schema nodes. */
export function presentNotes(node: RawNode): Partial<VersionNotes> {
  const all = versionNotes(node);
  const notes: Partial<VersionNotes> = {};
  if (all.featureLevel !== undefined) notes.featureLevel = all.featureLevel;
  if (all.changes.length > 0) notes.changes = all.changes;
  if (all.deprecated) notes.deprecated = true;
  if (all.unspecified.length > 0) notes.unspecified = all.unspecified;
  return notes;
}

/** Notes of a parameter: its own, completed by its schema's. */
export function mergeNotes(primary: VersionNotes, secondary: VersionNotes): VersionNotes {
  const notes: VersionNotes = {
    changes: primary.changes.length > 0 ? primary.changes : secondary.changes,
    deprecated: primary.deprecated || secondary.deprecated,
    unspecified: [...primary.unspecified, ...secondary.unspecified.filter((u) => !primary.unspecified.includes(u))],
  };
  const level = primary.featureLevel ?? secondary.featureLevel;
  if (level !== undefined) notes.featureLevel = level;
  return notes;
}
