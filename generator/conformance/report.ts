/** A run's result as text (for people), JSON or JUnit XML (for CI). */
import type { Failure, RunResult } from './run.js';

export type ReportFormat = 'text' | 'json' | 'junit';

export function formatReport(result: RunResult, format: ReportFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify({ failures: result.failures, summary: result.summary }, null, 2);
    case 'junit':
      return junit(result);
    case 'text':
      return text(result);
  }
}

function text({ failures, summary }: RunResult): string {
  const lines: string[] = [];
  failures.forEach((failure, index) => {
    lines.push(`${index + 1}) ${failure.operationId} (${failure.method}): ${failure.rule}`);
    lines.push(`   ${failure.path}: ${failure.message}`);
    lines.push(`   the document says: ${failure.expected} (${failure.specLocation})`);
    if (failure.broken !== undefined) lines.push(`   request: ${failure.kind}, ${failure.broken}`);
    else lines.push(`   request: ${failure.kind}${failure.via === undefined ? '' : `, via ${failure.via}`}`);
    lines.push(`   reproduce: ${failure.curl}`);
    lines.push('');
  });
  for (const note of summary.notes) lines.push(`note: ${note}`);
  for (const skipped of summary.skipped) lines.push(`skipped: ${skipped.operationId}: ${skipped.reason}`);
  const stopped = summary.stoppedBy === undefined ? '' : ` (stopped by --${summary.stoppedBy})`;
  lines.push(
    `${summary.failures === 0 ? 'conforms' : `${summary.failures} failure${summary.failures === 1 ? '' : 's'}`}: ${summary.requests} requests, ${summary.operations} operations, ${summary.linksFollowed} links followed, seed ${summary.seed}${stopped}`,
  );
  return lines.join('\n');
}

function junit({ failures, summary }: RunResult): string {
  const byOperation = new Map<string, Failure[]>();
  for (const operationId of summary.operationsTested) byOperation.set(operationId, []);
  for (const failure of failures) byOperation.get(failure.operationId)?.push(failure) ?? byOperation.set(failure.operationId, [failure]);
  const cases: string[] = [];
  for (const [operationId, found] of byOperation) {
    if (found.length === 0) cases.push(`    <testcase classname="conformance" name="${xml(operationId)}"/>`);
    for (const failure of found) {
      const body = [`${failure.path}: ${failure.message}`, `the document says: ${failure.expected} (${failure.specLocation})`, `reproduce: ${failure.curl}`].join('\n');
      cases.push(
        `    <testcase classname="conformance.${xml(operationId)}" name="${xml(failure.rule)}">\n      <failure type="${xml(failure.rule)}" message="${xml(failure.message)}">${xml(body)}</failure>\n    </testcase>`,
      );
    }
  }
  const skipped = summary.skipped.map((s) => `    <testcase classname="conformance" name="${xml(s.operationId)}"><skipped message="${xml(s.reason)}"/></testcase>`);
  const tests = cases.length + skipped.length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="teamchat conformance" tests="${tests}" failures="${failures.length}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(summary.baseUrl)}" tests="${tests}" failures="${failures.length}" skipped="${skipped.length}" time="${(summary.durationMs / 1000).toFixed(3)}">`,
    `    <properties><property name="seed" value="${summary.seed}"/><property name="requests" value="${summary.requests}"/></properties>`,
    ...cases,
    ...skipped,
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
