import type { ApiModel } from '../../model/types.js';
import { groupByLevel, operationChanges, sortNewestFirst, type ChangeEntry } from './changes.js';
import type { SchemaLookup } from './fields.js';
import { referenceLink } from './links.js';
import { linkText, oneLine } from './markdown.js';

/** What `templates/docs/changelog.md.hbs` receives. */
export interface ChangelogView {
  banner: string;
  title: string;
  levels: { level: number; entries: { operations: string; place: string; change: string }[] }[];
}

/**
 * Every change of the model, newest level first; within a level in operation
 * order. A change shared by several operations (an envelope field, say) is
 * one entry naming them all, or "every operation".
 */
export function changelogView(model: ApiModel, lookup: SchemaLookup, banner: string): ChangelogView {
  const entries = sortNewestFirst(model.operations.flatMap((operation) => operationChanges(operation, lookup)));
  return {
    banner,
    title: `${model.title} changelog`,
    levels: groupByLevel(entries).map((group) => ({
      level: group.level,
      entries: mergeShared(group.entries).map((shared) => ({
        operations:
          shared.length === model.operations.length && model.operations.length > 1
            ? 'Every operation'
            : shared.map(({ operation }) => `[${linkText(operation.summary)}](${referenceLink(operation)})`).join(', '),
        place: shared[0]!.place,
        change: oneLine(shared[0]!.change),
      })),
    })),
  };
}

/** Entries with the same place and text, together, at the position of the first. */
function mergeShared(entries: ChangeEntry[]): ChangeEntry[][] {
  const byKey = new Map<string, ChangeEntry[]>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.place, entry.change]);
    const same = byKey.get(key);
    if (same === undefined) byKey.set(key, [entry]);
    else same.push(entry);
  }
  return [...byKey.values()];
}
