/** The three output formats of `teamchat diff`: text (terminal), markdown (release notes, pull requests), json. */
import type { ApiModel } from '../model/types.js';
import type { DiffChange } from './types.js';

export const FORMATS = ['text', 'markdown', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export interface DiffReport {
  base: { label: string; model: ApiModel };
  head: { label: string; model: ApiModel };
  changes: DiffChange[];
  /** Present when `--check-levels` ran. */
  levelProblems?: string[];
}

export function formatReport(report: DiffReport, format: Format): string {
  switch (format) {
    case 'json':
      return formatJson(report);
    case 'markdown':
      return formatMarkdown(report);
    default:
      return formatText(report);
  }
}

/** The JSON schema is documented in docs/diff.md and in `teamchat diff --help`. */
function formatJson(report: DiffReport): string {
  const out: Record<string, unknown> = {
    base: report.base.label,
    head: report.head.label,
    baseFeatureLevel: report.base.model.maxFeatureLevel,
    headFeatureLevel: report.head.model.maxFeatureLevel,
    breaking: report.changes.filter((c) => c.breaking).length,
    changes: report.changes.map(({ operationId, location, name, kind, breaking, level, message }) => ({ operationId, location, name, kind, breaking, level, message })),
  };
  if (report.levelProblems) out.levelProblems = report.levelProblems;
  return `${JSON.stringify(out, null, 2)}\n`;
}

function formatText(report: DiffReport): string {
  const lines = [`${report.base.label} -> ${report.head.label}: ${summary(report)}; feature level ${levels(report)}`];
  for (const group of byOperation(report.changes)) {
    lines.push('', heading(report, group.operationId));
    for (const change of group.changes) {
      lines.push(`  ${change.breaking ? 'BREAKING  ' : 'compatible'}  ${change.message}${change.level === null ? '' : `  (level ${change.level})`}`);
    }
  }
  if (report.levelProblems) {
    lines.push('', report.levelProblems.length === 0 ? 'Feature levels: every change is noted at a new level.' : 'Feature levels: changes without a note at a new level:');
    for (const problem of report.levelProblems) lines.push(`  ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}

function formatMarkdown(report: DiffReport): string {
  const lines = [`# API changes from \`${report.base.label}\` to \`${report.head.label}\``, '', `${capitalize(summary(report))}. Feature level ${levels(report)}.`];
  if (report.changes.length === 0) lines.push('', 'No changes a client can observe.');
  const sections: [string, DiffChange[]][] = [
    ['Breaking changes', report.changes.filter((c) => c.breaking)],
    ['Compatible changes', report.changes.filter((c) => !c.breaking)],
  ];
  for (const [title, changes] of sections) {
    if (changes.length === 0) continue;
    lines.push('', `## ${title}`);
    for (const group of byOperation(changes)) {
      lines.push('', `### ${markdownHeading(report, group.operationId)}`, '');
      for (const change of group.changes) {
        lines.push(`- ${capitalize(change.message)}.${change.level === null ? '' : ` *(feature level ${change.level})*`}`);
      }
    }
  }
  if (report.levelProblems && report.levelProblems.length > 0) {
    lines.push('', '## Changes without a feature-level note', '');
    for (const problem of report.levelProblems) lines.push(`- ${problem}`);
  }
  return `${lines.join('\n')}\n`;
}

function summary(report: DiffReport): string {
  const breaking = report.changes.filter((c) => c.breaking).length;
  const compatible = report.changes.length - breaking;
  return `${breaking} breaking change${breaking === 1 ? '' : 's'}, ${compatible} compatible change${compatible === 1 ? '' : 's'}`;
}

function levels(report: DiffReport): string {
  const a = report.base.model.maxFeatureLevel;
  const b = report.head.model.maxFeatureLevel;
  return a === b ? `${a} (unchanged)` : `${a} -> ${b}`;
}

function byOperation(changes: DiffChange[]): { operationId: string | null; changes: DiffChange[] }[] {
  const groups: { operationId: string | null; changes: DiffChange[] }[] = [];
  for (const change of changes) {
    const last = groups.at(-1);
    if (last && last.operationId === change.operationId) last.changes.push(change);
    else groups.push({ operationId: change.operationId, changes: [change] });
  }
  return groups;
}

function endpoint(report: DiffReport, id: string): string | undefined {
  const op = report.head.model.operations.find((o) => o.id === id) ?? report.base.model.operations.find((o) => o.id === id);
  return op && `${op.method.toUpperCase()} ${op.path}`;
}

function heading(report: DiffReport, id: string | null): string {
  if (id === null) return 'error codes (every operation that returns them)';
  const at = endpoint(report, id);
  return at ? `${id} (${at})` : id;
}

function markdownHeading(report: DiffReport, id: string | null): string {
  if (id === null) return 'Error codes';
  const at = endpoint(report, id);
  return at ? `\`${id}\` (\`${at}\`)` : `\`${id}\``;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
