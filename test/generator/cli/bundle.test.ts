/**
 * The `teamchat` command runs dist/cli.cjs, the compiled generator bundled
 * into one CommonJS file (scripts/bundle-cli.ts, decision 0038) and loaded
 * through the V8 code cache. It must do what the compiled ES modules do
 * (`TEAMCHAT_CLI_BUNDLE=off`): the same files, the same messages, a user's
 * ES module config (with top-level await) and packages loaded on first use,
 * also on a second run, when the code comes from the cache.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { installed } from '../../../generator/cli/peers.js';
import { snapshot, tempProject } from '../../support/generator.js';

const PROJECT = fileURLToPath(new URL('../../../', import.meta.url));
const BIN = join(PROJECT, 'bin/teamchat.js');
const run = promisify(execFile);
const cache = mkdtempSync(join(tmpdir(), 'teamchat-bundle-cache-'));
const disposers: (() => void)[] = [() => rmSync(cache, { recursive: true, force: true })];
afterAll(() => disposers.forEach((dispose) => dispose()));

async function teamchat(root: string, args: string[], bundle: 'on' | 'off'): Promise<{ code: number; out: string }> {
  const env = { ...process.env, TEAMCHAT_CACHE_DIR: cache, TEAMCHAT_CLI_BUNDLE: bundle, TEAMCHAT_TYPES_THREAD: 'off' };
  const done = await run(process.execPath, [BIN, ...args], { cwd: root, env }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  // Timings differ from run to run.
  return { code: done.code, out: `${done.stdout}${done.stderr}`.replace(/ +\d+(\.\d+)? m?s$/gm, '') };
}

function project(fixture: string): string {
  const made = tempProject(fixture);
  disposers.push(made.dispose);
  return made.root;
}

describe('the command bundle', () => {
  it('holds no import(), which code from a V8 code cache cannot run on Node 20', () => {
    const bundle = readFileSync(join(PROJECT, 'dist/cli.cjs'), 'utf8');
    expect(bundle).toContain('__teamchatModuleUrl("generator/targets/types/thread.js")');
    expect(bundle).not.toMatch(/\bimport\(/);
    expect(bundle).not.toMatch(/\bimport\.meta\b/);
    // bin/teamchat.js takes the start sample of the cores on this module before the bundle loads: one instance for both.
    expect(bundle).toContain('require("./generator/cpu.js")');
  });

  it('writes what the compiled modules write, first run and cached run, with an ES module config that awaits', async () => {
    const roots = { on: project('basic'), off: project('basic') };
    for (const root of Object.values(roots)) {
      writeFileSync(join(root, 'teamchat.config.mjs'), "const targets = await Promise.resolve(['types', 'validators', 'client']);\nexport default { targets };\n");
    }
    const first = await teamchat(roots.on, ['generate'], 'on');
    const again = await teamchat(roots.on, ['generate', '--check'], 'on');
    const plain = await teamchat(roots.off, ['generate'], 'off');
    expect(first.code).toBe(0);
    expect(first.out).toBe(plain.out);
    expect(first.out).toMatch(/^client +\d+ written/m);
    expect(again).toMatchObject({ code: 0 });
    expect(again.out).toMatch(/^client +0 stale/m);
    const files = (root: string) => [...snapshot(join(root, 'generated'))].map(([path, { contents }]) => [path, contents]);
    expect(files(roots.on)).toEqual(files(roots.off));
  });

  it('reports a bad spec and an unknown target as the compiled modules do', async () => {
    const root = project('malformed/header-param');
    for (const args of [['generate', '--only', 'types'], ['generate', '--only', 'typez']]) {
      const [bundled, plain] = [await teamchat(root, args, 'on'), await teamchat(root, args, 'off')];
      expect(bundled.code).toBeGreaterThan(0);
      expect(bundled).toEqual(plain);
    }
  });
});

describe('installed packages', () => {
  it('finds a package by its manifest above the generator, or from a project, and nothing else', () => {
    expect(installed('yargs')).toBe(true);
    expect(installed('teamchat-no-such-package')).toBe(false);
    const root = mkdtempSync(join(tmpdir(), 'teamchat-peer-'));
    disposers.push(() => rmSync(root, { recursive: true, force: true }));
    expect(installed('teamchat-local-peer', root)).toBe(false);
    const folder = join(root, 'node_modules', 'teamchat-local-peer');
    // A folder without a manifest is not a package.
    mkdirSync(folder, { recursive: true });
    expect(installed('teamchat-local-peer', root)).toBe(false);
    writeFileSync(join(folder, 'package.json'), '{"name":"teamchat-local-peer"}');
    expect(installed('teamchat-local-peer', root)).toBe(true);
  });
});
