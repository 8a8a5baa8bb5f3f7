/**
 * Feature-level discipline (`teamchat diff --check-levels`): every change
 * since the base must be noted (`x-changes` or `x-feature-level`) at a level
 * above the base's highest one, at its place or an enclosing one, and the
 * document's highest level must have risen.
 */
import type { ApiModel } from '../model/types.js';
import type { DiffChange } from './types.js';

/** Changes that are themselves level notes need no note of their own. */
const NOTE_KINDS = new Set(['level-note-added', 'level-note-removed']);

export function checkLevels(base: ApiModel, head: ApiModel, changes: readonly DiffChange[]): string[] {
  const floor = base.maxFeatureLevel;
  const relevant = changes.filter((c) => !NOTE_KINDS.has(c.kind));
  const problems = relevant
    .filter((c) => c.level === null || c.level <= floor)
    .map(
      (c) =>
        `${c.operationId ?? 'error codes'}: ${c.message} [${c.kind}]: no \`x-changes\` entry or \`x-feature-level\` above ${floor} ` +
        `${c.level === null ? 'notes it' : `notes it (the newest around it is ${c.level})`}`,
    );
  if (relevant.length > 0 && head.maxFeatureLevel <= floor) {
    problems.push(`the document's highest feature level is still ${head.maxFeatureLevel}; ${relevant.length} change(s) since the base need a new level above ${floor}`);
  }
  return problems;
}
