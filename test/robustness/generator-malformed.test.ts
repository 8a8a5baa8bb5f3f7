/**
 * The real `teamchat generate` command on a corpus of malformed specs:
 * test/fixtures/malformed/ (multi-file and single-file cases) plus the
 * fixtures test/generator/load/errors.test.ts runs in process. For each: exit
 * code 1, exactly one `file:line: message` line on stderr naming the right
 * place, and an earlier good generation left exactly as it was.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, repoRoot, runNode, type RunResult } from '../support/process.js';

const FIXTURES = join(repoRoot, 'test/fixtures');
const CLI = join(repoRoot, 'bin/teamchat.js');
/** Each run starts a Node process that loads the whole generator: two at a time is what two shared cores take. */
const PARALLEL = 2;

interface Want {
  file: string;
  line: number;
  message: string;
}

const cases: [fixture: string, want: Want][] = [
  // YAML that does not parse, in the root, a path file and a schema file.
  ['malformed/yaml-tab-root', { file: 'spec/openapi.yaml', line: 8, message: 'YAML syntax error: Tabs are not allowed as indentation' }],
  ['generator/malformed/yaml-syntax', { file: 'spec/paths/things.yaml', line: 5, message: 'YAML syntax error' }],
  ['malformed/duplicate-key', { file: 'spec/paths/things.yaml', line: 10, message: 'YAML syntax error: Map keys must be unique' }],
  ['malformed/yaml-syntax-schema', { file: 'spec/components/schemas/Thing.yaml', line: 5, message: 'YAML syntax error: All mapping items must start at the same column' }],
  // References to nothing.
  ['generator/malformed/dangling-ref', { file: 'spec/paths/things.yaml', line: 9, message: 'cannot resolve $ref `../components/schemas/Missing.yaml`' }],
  ['generator/malformed/dangling-internal-ref', { file: 'spec/openapi.yaml', line: 9, message: 'cannot resolve $ref `#/components/parameters/Nope`' }],
  ['malformed/dangling-ref-schema', { file: 'spec/components/schemas/Thing.yaml', line: 6, message: 'cannot resolve $ref `./Owner.yaml`' }],
  // Duplicate operationIds, in one file and across files.
  ['generator/malformed/duplicate-operationid', { file: 'spec/openapi.yaml', line: 18, message: 'duplicate operationId `make-thing` (first used at spec/openapi.yaml:7)' }],
  ['malformed/duplicate-operationid-files', { file: 'spec/paths/widgets.yaml', line: 3, message: 'duplicate operationId `list-items` (first used at spec/paths/things.yaml:3)' }],
  // Extensions and keywords of the wrong type or shape.
  ['generator/malformed/feature-level-text', { file: 'spec/openapi.yaml', line: 8, message: '`x-feature-level` must be a non-negative integer' }],
  ['malformed/feature-level-negative', { file: 'spec/openapi.yaml', line: 8, message: '`x-feature-level` must be a non-negative integer' }],
  ['malformed/feature-level-in-parameter-file', { file: 'spec/components/parameters/Limit.yaml', line: 4, message: '`x-feature-level` must be a non-negative integer' }],
  ['malformed/changes-not-list', { file: 'spec/paths/things.yaml', line: 3, message: '`x-changes` must be a list of {level, change}' }],
  ['malformed/changes-without-level', { file: 'spec/components/schemas/Thing.yaml', line: 7, message: '`x-changes` item 0 must be {level: <non-negative integer>, change: <text>}' }],
  ['malformed/changes-unknown-key', { file: 'spec/paths/things.yaml', line: 3, message: '`x-changes` item 1 has unknown key `since`' }],
  ['malformed/unspecified-not-text', { file: 'spec/components/schemas/Thing.yaml', line: 5, message: '`x-unspecified` must be non-empty text' }],
  ['malformed/error-code-lowercase', { file: 'spec/openapi.yaml', line: 25, message: '`x-error-code` must be an UPPER_SNAKE_CASE code' }],
  ['malformed/required-not-list', { file: 'spec/components/schemas/Thing.yaml', line: 2, message: '`required` must be a list of property names' }],
  ['malformed/parameter-without-in', { file: 'spec/paths/things.yaml', line: 4, message: 'parameter `limit`' }],
  // Parameters in a style their location does not have.
  ['generator/malformed/header-param', { file: 'spec/openapi.yaml', line: 10, message: 'parameter `X-Token` is `in: header`, whose style is `simple` (found `form`)' }],
  ['malformed/header-param-component', { file: 'spec/components/parameters/Token.yaml', line: 2, message: 'parameter `X-Token` is `in: header`, whose style is `simple` (found `matrix`)' }],
  // Constructs the model cannot carry.
  ['generator/malformed/body-media-not-object', { file: 'spec/openapi.yaml', line: 10, message: 'media type `application/json` must be a media type object' }],
];

/** A project directory as the CLI sees it: the repository's dependencies and templates, a spec, an output folder. */
function project(base: string, spec: string): string {
  const root = mkdtempSync(join(base, 'project-'));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
  symlinkSync(join(repoRoot, 'templates'), join(root, 'templates'), 'dir');
  cpSync(spec, join(root, 'spec'), { recursive: true });
  return root;
}

const generate = (root: string, ...extra: string[]): Promise<RunResult> =>
  runNode(CLI, ['generate', '--spec', 'spec/openapi.yaml', '--out', 'generated', ...extra], { cwd: root, timeoutMs: 120_000 });

/** Every file of the project but its inputs: relative path -> content hash and mtime. */
function outputTree(root: string): Map<string, string> {
  const tree = new Map<string, string>();
  const inputs = new Set(['spec', 'node_modules', 'templates']);
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (dir === root && inputs.has(entry.name)) continue;
      if (entry.isDirectory()) visit(path);
      else tree.set(relative(root, path), `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mtimeMs}`);
    }
  };
  visit(root);
  return tree;
}

async function inPool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

describe('teamchat generate on malformed specs', () => {
  let base: string;
  let goodTree: Map<string, string>;
  const outcomes = new Map<string, { run: RunResult; before: Map<string, string>; after: Map<string, string> }>();

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'teamchat-malformed-'));
    // A good generation of every target the basic fixture supports, copied into each case's project.
    const good = project(base, join(FIXTURES, 'generator/basic'));
    const run = await generate(good, '--only', 'types,validators,client,docs');
    if (run.code !== 0) throw new Error(describeRun('the good generation', run));
    goodTree = outputTree(good);

    await inPool(cases, PARALLEL, async ([fixture]) => {
      const root = project(base, join(FIXTURES, fixture));
      cpSync(join(good, 'generated'), join(root, 'generated'), { recursive: true, preserveTimestamps: true });
      const before = outputTree(root);
      const result = await generate(root);
      outcomes.set(fixture, { run: result, before, after: outputTree(root) });
      rmSync(root, { recursive: true, force: true });
    });
  }, 600_000);

  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it('starts each case from a good generation of several targets', () => {
    expect(goodTree.size).toBeGreaterThanOrEqual(8);
    expect([...goodTree.keys()]).toEqual(expect.arrayContaining(['generated/types.ts', 'generated/client.ts', 'generated/validators.ts']));
  });

  it.each(cases)('%s', (fixture, want) => {
    const outcome = outcomes.get(fixture);
    if (!outcome) throw new Error(`${fixture} did not run`);
    const { run, before, after } = outcome;
    const report = describeRun(`generate on ${fixture}`, run);
    expect(run.code, report).toBe(1);
    expect(run.stdout, report).toBe('');

    const lines = run.stderr.trimEnd().split('\n');
    const located = lines.filter((line) => /^[^\s:]+:\d+: /.test(line));
    expect(located, report).toHaveLength(1);
    expect(lines, report).toHaveLength(2);
    expect(lines[1], report).toMatch(/^generate failed in \d+(\.\d)? m?s$/);

    const [, file, line, message] = /^([^\s:]+):(\d+): (.*)$/.exec(located[0]!)!;
    expect({ file, line: Number(line) }, report).toEqual({ file: want.file, line: want.line });
    expect(message, report).toContain(want.message);
    // The line named holds the problem, not the end of the file.
    const named = readFileSync(join(FIXTURES, fixture, relative('spec', want.file)), 'utf8').split('\n')[want.line - 1];
    expect(named?.trim(), `${want.file}:${want.line}`).toBeTruthy();

    expect(after).toEqual(before);
  });
});
