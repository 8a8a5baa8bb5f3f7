/**
 * `teamchat diff` as users run it: the fixture pair in all three formats,
 * exit codes, and git revisions of a temporary clone of this repository
 * whose real spec is edited (with and without a feature-level note).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';
import { EXPECTED } from './expected.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(ROOT, 'bin/teamchat.js');
const BASE = join(ROOT, 'test/fixtures/diff/base.yaml');
const HEAD = join(ROOT, 'test/fixtures/diff/head.yaml');
const exec = promisify(execFile);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function teamchat(cwd: string, ...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [BIN, 'diff', ...args], { cwd, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

interface JsonChange {
  operationId: string | null;
  location: string;
  name: string;
  kind: string;
  breaking: boolean;
  level: number | null;
  message: string;
}

describe('teamchat diff on the fixture pair', () => {
  let json: { changes: JsonChange[]; breaking: number; baseFeatureLevel: number; headFeatureLevel: number };
  let jsonRun: Run;
  let text: Run;
  let markdown: Run;

  beforeAll(async () => {
    [jsonRun, text, markdown] = await Promise.all([
      teamchat(ROOT, BASE, HEAD, '--format', 'json'),
      teamchat(ROOT, BASE, HEAD),
      teamchat(ROOT, BASE, HEAD, '--format', 'markdown', '--allow-breaking'),
    ]);
    json = JSON.parse(jsonRun.stdout);
  }, 60_000);

  it('json: every change with its classification, in the documented shape', () => {
    expect(jsonRun.code).toBe(1);
    expect(json.changes.map((c) => [c.operationId, c.location, c.name, c.kind, c.breaking])).toEqual(EXPECTED);
    for (const change of json.changes) {
      expect(Object.keys(change)).toEqual(['operationId', 'location', 'name', 'kind', 'breaking', 'level', 'message']);
      expect(change.level === null || Number.isInteger(change.level)).toBe(true);
    }
    expect(json.breaking).toBe(EXPECTED.filter((e) => e[4]).length);
    expect([json.baseFeatureLevel, json.headFeatureLevel]).toEqual([5, 11]);
  });

  it('text: grouped by operation, each change marked breaking or compatible; exit 1 on breaking changes', () => {
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^diff: 32 breaking changes \(pass --allow-breaking to accept them\)$/m);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toMatch(/: 32 breaking changes, 28 compatible changes; feature level 5 -> 11$/);
    for (const change of json.changes) {
      const heading = change.operationId === null ? 'error codes' : `${change.operationId} (`;
      const headingAt = lines.findIndex((l) => l.startsWith(heading));
      const line = `  ${change.breaking ? 'BREAKING  ' : 'compatible'}  ${change.message}`;
      const at = lines.findIndex((l, i) => i > headingAt && l.startsWith(line));
      expect(headingAt, heading).toBeGreaterThan(0);
      expect(at, line).toBeGreaterThan(headingAt);
      // No other heading between the operation's heading and its change.
      expect(lines.slice(headingAt + 1, at).every((l) => l.startsWith('  '))).toBe(true);
    }
  });

  it('markdown: breaking and compatible sections, each change under its operation; --allow-breaking exits 0', () => {
    expect(markdown.code).toBe(0);
    const [before, after] = markdown.stdout.split('\n## Compatible changes\n');
    expect(before).toContain('\n## Breaking changes\n');
    for (const change of json.changes) {
      const item = `- ${change.message.charAt(0).toUpperCase()}${change.message.slice(1)}.`;
      expect(change.breaking ? before : after, item).toContain(item);
      expect(change.breaking ? after : before).not.toContain(`${item}${change.level === null ? '\n' : ' *'}`);
    }
    expect(markdown.stdout).toContain('### `get-item` (`GET /items/{item_id}`)');
  });

  it('an enum that shrinks or grows is one change naming the values, in every format', () => {
    const want: [string, boolean, string][] = [
      ['presence', true, 'parameter `presence` lost the value "idle"; it is now always "active"'],
      ['shade', true, 'parameter `shade` lost the values "blue", "black"; it now takes "red", "green"'],
      ['tier', false, 'parameter `tier` gained the value 3; it now takes 1, 2, 3'],
      ['item.stage', false, 'response field `item.stage` lost the values "new", "done"; it is now always "open"'],
      ['item.mood', true, 'response field `item.mood` gained the value "tense"; it now takes "calm", "tense"'],
    ];
    const [before, after] = markdown.stdout.split('\n## Compatible changes\n');
    for (const [name, breaking, message] of want) {
      expect(json.changes.filter((c) => c.name === name).map((c) => [c.breaking, c.message])).toEqual([[breaking, message]]);
      expect(text.stdout).toContain(`  ${breaking ? 'BREAKING  ' : 'compatible'}  ${message}  (level 11)\n`);
      const item = `- ${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
      expect(breaking ? before : after).toContain(item);
      expect(breaking ? after : before).not.toContain(item);
    }
  });

  it('check-levels lists the changes without a note at a new level and fails', async () => {
    const run = await teamchat(ROOT, BASE, HEAD, '--check-levels', '--allow-breaking', '--format', 'json');
    expect(run.code).toBe(1);
    const problems = JSON.parse(run.stdout).levelProblems as string[];
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('remove-legacy: DELETE /legacy was removed');
    expect(run.stderr).toMatch(/--check-levels found 4 problems/);
  });
});

describe('teamchat diff on git revisions of a temporary clone', () => {
  let clone: string;
  let level: number;
  const git = (...args: string[]) => exec('git', ['-c', 'user.name=diff test', '-c', 'user.email=diff@example.com', ...args], { cwd: clone });
  const STATUS = 'spec/paths/users_me_status.yaml';
  const ORIGINAL = '            status_text:\n              type: string\n              maxLength: 60\n';

  beforeAll(async () => {
    clone = mkdtempSync(join(tmpdir(), 'teamchat-diff-clone-'));
    await exec('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone]);
    level = buildModel(await loadSpec('spec/openapi.yaml', clone)).maxFeatureLevel;
    expect(readFileSync(join(clone, STATUS), 'utf8')).toContain(ORIGINAL);
  }, 60_000);

  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  const edit = (note: boolean): void => {
    const path = join(clone, STATUS);
    const noted = note ? `              x-changes:\n                - level: ${level + 1}\n                  change: The status text is limited to 50 code points.\n` : '';
    const text = readFileSync(path, 'utf8').replace(/ {12}status_text:\n[^]*?maxLength: \d+\n( {14}x-changes:\n.*\n.*\n)?/, ORIGINAL.replace('60', '50') + noted);
    writeFileSync(path, text);
  };

  it('an unchanged working tree has no changes and passes --check-levels', async () => {
    const run = await teamchat(clone, 'HEAD', '--check-levels');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^HEAD -> working tree: 0 breaking changes, 0 compatible changes/);
  });

  it('an edit without a level note is reported as breaking and fails --check-levels', async () => {
    edit(false);
    const run = await teamchat(clone, 'HEAD', '--check-levels', '--format', 'json');
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out.changes).toEqual([
      {
        operationId: 'update-status',
        location: 'body',
        name: 'status_text',
        kind: 'limit-changed',
        breaking: true,
        level: null,
        message: 'parameter `status_text`: maximum length 60 -> 50',
      },
    ]);
    expect(out.levelProblems).toHaveLength(2);
    expect(out.levelProblems[0]).toMatch(/^update-status: parameter `status_text`: maximum length 60 -> 50 \[limit-changed\]: no `x-changes` entry/);
    expect(out.levelProblems[1]).toMatch(/highest feature level is still/);
  });

  it('the same edit with a note at a new level passes --check-levels', async () => {
    edit(true);
    const run = await teamchat(clone, 'HEAD', '--check-levels', '--allow-breaking');
    expect(run.stderr).not.toContain('check-levels');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`feature level ${level} -> ${level + 1}`);
    expect(run.stdout).toContain(`BREAKING    parameter \`status_text\`: maximum length 60 -> 50  (level ${level + 1})`);
    expect(run.stdout).toContain('Feature levels: every change is noted at a new level.');
  });

  it('release notes between two tags', async () => {
    await git('tag', 'v-before');
    await git('commit', '--quiet', '-am', 'Shorter status text');
    await git('tag', 'v-after');
    const run = await teamchat(clone, 'v-before', 'v-after', '--format', 'markdown', '--allow-breaking');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('# API changes from `v-before` to `v-after`');
    expect(run.stdout).toContain('## Breaking changes\n\n### `update-status` (`POST /users/me/status`)\n\n');
    expect(run.stdout).toContain(`- Parameter \`status_text\`: maximum length 60 -> 50. *(feature level ${level + 1})*`);
    expect(run.stdout).toContain('The status text is limited to 50 code points.');
  });

  it('a bad revision or file gives one line and exit 2', async () => {
    const run = await teamchat(clone, 'no-such-ref');
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('teamchat diff: `no-such-ref` is neither a spec file nor a git revision');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const missing = await teamchat(clone, 'HEAD', 'HEAD', '--spec', 'nowhere/openapi.yaml');
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('teamchat diff: HEAD has no nowhere/openapi.yaml');
  });

  it('a spec error in a revision names the revision, file and line', async () => {
    writeFileSync(join(clone, STATUS), 'post:\n  operationId: [\n');
    await git('commit', '--quiet', '-am', 'Broken');
    const run = await teamchat(clone, 'HEAD');
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n')[0]).toMatch(/^HEAD:spec\/paths\/users_me_status\.yaml:\d+: YAML syntax error/);
  });
});
