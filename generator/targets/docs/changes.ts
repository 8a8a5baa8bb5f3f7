import type { Change, Operation, VersionNotes } from '../../model/types.js';
import { flattenFields, type SchemaLookup } from './fields.js';
import { inlineCode } from './markdown.js';

/** One versioning note, with the place of the operation it concerns. */
export interface ChangeEntry {
  level: number;
  operation: Operation;
  /** `operation`, ``parameter `x` ``, ``response field `a.b` `` (markdown). */
  place: string;
  change: string;
}

/**
 * Every change of an operation, its parameters and its response fields, from
 * `x-changes` and `x-feature-level`, newest level first; within a level in
 * the order of the page (operation, parameters, fields).
 */
export function operationChanges(operation: Operation, lookup: SchemaLookup): ChangeEntry[] {
  const entries: ChangeEntry[] = [];
  const collect = (place: string, notes: Partial<VersionNotes>): void => {
    for (const { level, change } of notesChanges(notes)) entries.push({ level, operation, place, change });
  };
  collect('operation', operation);
  for (const parameter of operation.parameters) collect(`parameter ${inlineCode(parameter.name)}`, parameter);
  for (const field of flattenFields(operation.success.schema, lookup)) {
    collect(`response field ${inlineCode(field.path)}`, field.schema);
  }
  return sortNewestFirst(entries);
}

/** `x-changes`, plus "Added." for `x-feature-level` unless a change already names that level. */
function notesChanges(notes: Partial<VersionNotes>): Change[] {
  const changes = [...(notes.changes ?? [])];
  const level = notes.featureLevel;
  if (level !== undefined && !changes.some((change) => change.level === level)) {
    changes.unshift({ level, change: 'Added.' });
  }
  return changes;
}

/** By level, newest first; `Array.prototype.sort` is stable, so ties keep their order. */
export function sortNewestFirst<T extends { level: number }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => b.level - a.level);
}

/** Entries grouped by level, keeping their order (input sorted newest first). */
export function groupByLevel<T extends { level: number }>(entries: T[]): { level: number; entries: T[] }[] {
  const groups: { level: number; entries: T[] }[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    if (last?.level === entry.level) last.entries.push(entry);
    else groups.push({ level: entry.level, entries: [entry] });
  }
  return groups;
}
