import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError } from '../../../generator/config.js';
import { requirePeers } from '../../../generator/cli/peers.js';
import { noteLines } from '../../../generator/cli/commands/generate.js';
import { progressLine } from '../../../generator/cli/progress.js';
import { repoRoot, runNode } from '../../support/process.js';
import { FIXTURES } from '../../support/generator.js';

const CLI = join(repoRoot, 'bin/teamchat.js');
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fakeStream(isTTY: boolean): NodeJS.WriteStream & { text: string } {
  const stream = { isTTY, text: '', write(chunk: string) { stream.text += chunk; return true; } };
  return stream as unknown as NodeJS.WriteStream & { text: string };
}

describe('progress line', () => {
  const cases: [string, { isTTY: boolean; env: NodeJS.ProcessEnv; shows: boolean }][] = [
    ['a terminal', { isTTY: true, env: {}, shows: true }],
    ['a terminal under CI', { isTTY: true, env: { CI: 'true' }, shows: false }],
    ['a terminal with CI=false', { isTTY: true, env: { CI: 'false' }, shows: true }],
    ['a pipe', { isTTY: false, env: {}, shows: false }],
  ];
  it.each(cases)('on %s', (_name, { isTTY, env, shows }) => {
    const stream = fakeStream(isTTY);
    const line = progressLine(stream, env);
    line.step('load');
    line.step('client');
    line.done();
    if (!shows) expect(stream.text).toBe('');
    else expect(stream.text).toBe('\r\x1b[Kloading the spec...\r\x1b[Kgenerating client...\r\x1b[K');
  });
});

describe('optional peers', () => {
  it('names what to install when a command needs a missing package', () => {
    expect(() => requirePeers('teamchat serve --mock', ['fastify', 'teamchat-no-such-package'])).toThrow(ConfigError);
    expect(() => requirePeers('teamchat serve --mock', ['fastify', 'teamchat-no-such-package'])).toThrow(
      'teamchat serve --mock needs teamchat-no-such-package, not installed: `npm install --save-dev teamchat-no-such-package`',
    );
    expect(() => requirePeers('teamchat lint', ['@redocly/cli', 'fastify'])).not.toThrow();
  });
});

describe('teamchat init', () => {
  it('writes a config and a spec that generate accepts, adds the generate script, and never overwrites', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-init-'));
    scratch.push(dir);
    writeFileSync(join(dir, 'package.json'), '{\n    "name": "fresh",\n    "private": true\n}\n');
    const first = await runNode(CLI, ['init', '--format', 'mjs'], { cwd: dir, timeoutMs: 60_000 });
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(dir, 'teamchat.config.mjs'), 'utf8')).toContain("import { defineConfig } from 'teamchat-api';");
    expect(parse(readFileSync(join(dir, 'openapi.yaml'), 'utf8'))).toMatchObject({ openapi: '3.1.0', paths: { '/greeting': { get: { operationId: 'get-greeting' } } } });
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe('{\n    "name": "fresh",\n    "private": true,\n    "scripts": {\n        "generate": "teamchat generate"\n    }\n}\n');

    const spec = readFileSync(join(dir, 'openapi.yaml'), 'utf8');
    const again = await runNode(CLI, ['init'], { cwd: dir, timeoutMs: 60_000 });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('teamchat init: teamchat.config.mjs, openapi.yaml already exist here');
    expect(readFileSync(join(dir, 'openapi.yaml'), 'utf8')).toBe(spec);

    // The .mjs config imports 'teamchat-api', which resolves here only once installed; the json form needs nothing.
    rmSync(join(dir, 'teamchat.config.mjs'));
    writeFileSync(join(dir, 'teamchat.config.json'), JSON.stringify({ spec: 'openapi.yaml', targets: ['types', 'validators', 'client', 'client-package', 'server'] }));
    const generated = await runNode(CLI, ['generate'], { cwd: dir, timeoutMs: 120_000 });
    expect(generated.code, generated.stderr).toBe(0);
    for (const target of ['types', 'validators', 'client', 'client-package', 'server']) {
      expect(generated.stdout).toMatch(new RegExp(`^${target} +[1-9]\\d* written, 0 unchanged`, 'm'));
    }
    expect(readdirSync(join(dir, 'server/handlers'))).toEqual(['get-greeting.ts']);
  });
});

describe('paths of flags and of the config', () => {
  it('reads a spec outside the config folder, and takes path flags from the current directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'teamchat-paths-'));
    scratch.push(dir);
    cpSync(join(FIXTURES, 'basic'), join(dir, 'shared'), { recursive: true });
    mkdirSync(join(dir, 'app/sub'), { recursive: true });
    writeFileSync(join(dir, 'app/package.json'), '{ "private": true }');
    // A monorepo's package: the document lives beside it, not under it.
    writeFileSync(join(dir, 'app/teamchat.config.json'), JSON.stringify({ spec: '../shared/openapi.yaml', out: 'gen', targets: ['types'] }));
    const fromConfig = await runNode(CLI, ['generate'], { cwd: join(dir, 'app'), timeoutMs: 120_000 });
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    expect(existsSync(join(dir, 'app/gen/types.ts'))).toBe(true);

    // From a subfolder, the config is found above; --out and --spec are relative to where the command runs.
    const fromSub = await runNode(CLI, ['generate', '--out', 'out', '--spec', '../../shared/openapi.yaml'], { cwd: join(dir, 'app/sub'), timeoutMs: 120_000 });
    expect(fromSub.code, fromSub.stderr).toBe(0);
    expect(existsSync(join(dir, 'app/sub/out/types.ts'))).toBe(true);
    expect(existsSync(join(dir, 'app/out'))).toBe(false);

    // Output still stays inside the project.
    const outside = await runNode(CLI, ['generate', '--out', '../../elsewhere'], { cwd: join(dir, 'app/sub'), timeoutMs: 120_000 });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('--out must name a path inside');
  });
});

describe('teamchat --help and --version without loading yargs', () => {
  it('print what yargs prints, from the text the build rendered', async () => {
    const cached = await runNode(CLI, ['--help'], { cwd: repoRoot, timeoutMs: 30_000 });
    const live = await runNode(CLI, ['--help'], { cwd: repoRoot, timeoutMs: 30_000, env: { ...process.env, TEAMCHAT_HELP_CACHE: 'off' } });
    expect(cached.code).toBe(0);
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('teamchat generate');
    expect(cached.stdout).toBe(live.stdout);
    // The global setup built dist/ and rendered the help after it, so the bin took the fast path.
    const help = join(repoRoot, 'dist/help.txt');
    expect(readFileSync(help, 'utf8')).toBe(live.stdout);
    expect(statSync(help).mtimeMs).toBeGreaterThanOrEqual(statSync(join(repoRoot, 'dist/generator/cli/main.js')).mtimeMs);

    const version = await runNode(CLI, ['--version'], { cwd: repoRoot, timeoutMs: 30_000 });
    const liveVersion = await runNode(CLI, ['--version'], { cwd: repoRoot, timeoutMs: 30_000, env: { ...process.env, TEAMCHAT_HELP_CACHE: 'off' } });
    expect(version.stdout).toBe(liveVersion.stdout);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('notes of a run', () => {
  it('prints a note repeated at many places three times with its place, then counts the rest', () => {
    const reports = [
      ...[10, 20, 30, 40, 50].map((line) => `api.json:1:${line}: a GET request body is ignored`),
      'api.json:7: an encoding names no property `x`',
      'callbacks are ignored',
    ];
    expect(noteLines(reports)).toEqual([
      'note: api.json:1:10: a GET request body is ignored',
      'note: api.json:1:20: a GET request body is ignored',
      'note: api.json:1:30: a GET request body is ignored',
      'note: api.json:7: an encoding names no property `x`',
      'note: callbacks are ignored',
      'note: 2 more like "a GET request body is ignored"',
    ]);
  });
});
