/**
 * `npm test`'s pretest step (test/support/ensure-chromium.ts): the plan for
 * each kind of machine, and the script run with the browser's path pointed
 * somewhere that has none and a stand-in `apt-get` first on PATH, so the
 * install path runs for real without touching the machine's packages.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adviceLine, chromiumPath, chromiumPlan, DEFAULT_CHROMIUM, INSTALL_COMMANDS, thisMachine, type ChromiumPlan, type Machine } from '../support/chromium.js';
import { repoRoot, runNode, tsxCli } from '../support/process.js';

const scratch = mkdtempSync(join(tmpdir(), 'teamchat-chromium-'));
const missing = join(scratch, 'no-chromium');
const root = process.getuid?.() === 0;
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('chromiumPlan', () => {
  const machine = (given: Partial<Machine>): Machine => ({ path: '/opt/c', present: false, root: true, aptGet: true, ...given });
  const cases: [string, { given: Machine; want: ChromiumPlan }][] = [
    ['present: nothing to do', { given: machine({ present: true, root: false, aptGet: false }), want: { kind: 'present' } }],
    ['missing, root with apt-get: install', { given: machine({}), want: { kind: 'install', commands: INSTALL_COMMANDS } }],
    ['missing, not root: one line', { given: machine({ root: false }), want: { kind: 'advise', line: adviceLine('/opt/c') } }],
    ['missing, no apt-get: one line', { given: machine({ aptGet: false }), want: { kind: 'advise', line: adviceLine('/opt/c') } }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(chromiumPlan(given)).toEqual(want));

  it('installs Debian’s package without questions', () => {
    expect(INSTALL_COMMANDS).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', 'chromium'],
    ]);
    expect(adviceLine('/opt/c')).toContain('sudo apt-get install chromium');
    expect(adviceLine('/opt/c')).not.toContain('\n');
  });
});

describe('thisMachine', () => {
  it('looks at TEAMCHAT_CHROMIUM, else /usr/bin/chromium, and finds apt-get on PATH', () => {
    expect(chromiumPath({})).toBe(DEFAULT_CHROMIUM);
    expect(chromiumPath({ TEAMCHAT_CHROMIUM: missing })).toBe(missing);
    expect(thisMachine({ TEAMCHAT_CHROMIUM: missing, PATH: '' })).toMatchObject({ path: missing, present: false, aptGet: false });
    expect(thisMachine({ TEAMCHAT_CHROMIUM: process.execPath, PATH: join(scratch, 'nothing') })).toMatchObject({ present: true, aptGet: false });
    const bin = join(scratch, 'bin-with-apt');
    fakeAptGet(bin, 0);
    expect(thisMachine({ TEAMCHAT_CHROMIUM: missing, PATH: bin }).aptGet).toBe(true);
  });
});

/** An `apt-get` that logs each call (with DEBIAN_FRONTEND) to `calls` beside it and exits with `status`. */
function fakeAptGet(dir: string, status: number): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const calls = join(dir, 'calls');
  writeFileSync(join(dir, 'apt-get'), `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> '${calls}'\necho 'apt says why' >&2\nexit ${status}\n`);
  chmodSync(join(dir, 'apt-get'), 0o755);
  writeFileSync(calls, '');
  return calls;
}

describe('the pretest script on a machine without chromium', () => {
  const pretest = (env: NodeJS.ProcessEnv, args: string[] = []) =>
    runNode(tsxCli, ['test/support/ensure-chromium.ts', ...args], { cwd: repoRoot, timeoutMs: 60_000, env: { ...process.env, ...env } });

  it('says nothing when the browser is there', async () => {
    const result = await pretest({ TEAMCHAT_CHROMIUM: process.execPath });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
  });

  it('with --dry-run, names the install and runs nothing', async () => {
    const bin = join(scratch, 'dry');
    const calls = fakeAptGet(bin, 0);
    const result = await pretest({ TEAMCHAT_CHROMIUM: missing, PATH: `${bin}${delimiter}${process.env.PATH}` }, ['--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      root ? 'pretest: would install chromium for the docs browser test: apt-get update -qq && apt-get install -y -qq chromium' : `pretest: ${adviceLine(missing)}`,
    );
    expect(readFileSync(calls, 'utf8')).toBe('');
  });

  it('as root, runs apt-get update and install without questions; otherwise says in one line what to run', async () => {
    const bin = join(scratch, 'ok');
    const calls = fakeAptGet(bin, 0);
    const result = await pretest({ TEAMCHAT_CHROMIUM: missing, PATH: `${bin}${delimiter}${process.env.PATH}` });
    expect(result.code).toBe(0);
    if (root) {
      expect(readFileSync(calls, 'utf8')).toBe('noninteractive update -qq\nnoninteractive install -y -qq chromium\n');
      // The stand-in installs nothing, so the path is still missing, and the script says so.
      expect(result.stdout).toContain(`chromium is installed, but ${missing} is not there`);
      expect(result.stderr).not.toContain('apt says why');
    } else {
      expect(readFileSync(calls, 'utf8')).toBe('');
      expect(result.stdout.trim()).toBe(`pretest: ${adviceLine(missing)}`);
    }
  });

  it('when apt-get fails, passes on what it said and the line to run, and lets the suites run', async () => {
    const bin = join(scratch, 'failing');
    const calls = fakeAptGet(bin, 100);
    const result = await pretest({ TEAMCHAT_CHROMIUM: missing, PATH: `${bin}${delimiter}${process.env.PATH}` });
    expect(result.code).toBe(0);
    if (root) {
      expect(readFileSync(calls, 'utf8')).toBe('noninteractive update -qq\n');
      expect(result.stderr).toContain('apt says why');
      expect(result.stdout).toContain(`\`apt-get update -qq\` failed; ${adviceLine(missing)}`);
    } else {
      expect(result.stdout.trim()).toBe(`pretest: ${adviceLine(missing)}`);
    }
  });
});
