/**
 * The `types` target's worker thread (generator/targets/types/thread.ts) runs
 * compiled JavaScript, so these tests drive the build in dist/ (compiled by
 * the global setup): the thread, handed the document as loaded, must give
 * exactly the declarations the main thread computes from the model's
 * document and ids; a thread that fails or answers for other operations
 * gives nothing, so the target computes them itself. The CLI, which uses the
 * thread on a machine with two cores or more, must write the same types.ts
 * as a run with the thread turned off.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { idleCores, idleCoresSinceStart, markStart, sampleCpu } from '../../../../generator/cpu.js';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import { documentDeclarations, type DocumentDeclarations, type OperationId } from '../../../../generator/targets/types/declarations.js';
import { THREAD_MIN_SPEC_BYTES, threadWanted, type TypesThread as TypesThreadType } from '../../../../generator/targets/types/thread.js';
import { tempProject } from '../../../support/generator.js';

const PROJECT = fileURLToPath(new URL('../../../../', import.meta.url));
const COMPILED = new URL('../../../../dist/generator/targets/types/', import.meta.url);
const { TypesThread } = (await import(new URL('thread.js', COMPILED).href)) as { TypesThread: typeof TypesThreadType };
const WORKER = new URL('worker.js', COMPILED);

/** Documents with what the thread must reproduce: ids the model derives (path item refs), markers, loops, hostile names, 3.0. */
const SPECS = [
  'spec/openapi.yaml',
  'test/fixtures/generator/path-item-ref/openapi.yaml',
  'test/fixtures/generator/readwrite/openapi.yaml',
  'test/fixtures/generator/hostile/openapi.yaml',
  'test/fixtures/generator/openapi30/openapi.yaml',
  'test/fixtures/schemas/recursion/openapi.yaml',
  'test/fixtures/schemas/composition/openapi.yaml',
];

const threads: TypesThreadType[] = [];
afterEach(() => threads.splice(0).forEach((thread) => thread.stop()));
function thread(script: URL): TypesThreadType {
  const started = new TypesThread(script);
  threads.push(started);
  return started;
}

/** As the pipeline and the target use it: the document posted as loaded, the ids taken from the model built after. */
async function both(spec: string, script = WORKER): Promise<{ threaded: DocumentDeclarations | undefined; direct: DocumentDeclarations }> {
  const loaded = await loadSpec(spec, PROJECT);
  const worker = thread(script);
  worker.loaded(loaded.document);
  const model = buildModel(loaded);
  const operations: OperationId[] = model.operations.map(({ path, method, id }) => ({ path, method, id }));
  const threaded = await worker.declarations(operations);
  return { threaded, direct: documentDeclarations(model.openapi!, operations) };
}

describe('the types target in a worker thread', () => {
  it.each(SPECS)('gives the declarations the main thread gives for %s', async (spec) => {
    const { threaded, direct } = await both(spec);
    expect(threaded).toBeDefined();
    expect(threaded).toEqual(direct);
  });

  it('gives nothing when the worker fails, so the target computes the declarations itself', async () => {
    const { threaded } = await both(SPECS[1]!, new URL('data:text/javascript,throw new Error("no worker today")'));
    expect(threaded).toBeUndefined();
  });

  it('gives nothing when the worker used other operation ids than the model', async () => {
    const wrong = `import { parentPort } from 'node:worker_threads';
parentPort.once('message', () => parentPort.postMessage({ declarations: { text: 'wrong', markers: false, cycles: [] }, operations: [] }));`;
    const { threaded } = await both(SPECS[1]!, new URL(`data:text/javascript,${encodeURIComponent(wrong)}`));
    expect(threaded).toBeUndefined();
  });
});

describe('when the thread is used', () => {
  const large = THREAD_MIN_SPEC_BYTES;
  it.each([
    ['unset, large spec, two idle cores', undefined, large, 2, 0.3, true],
    ['unset, large spec, one core busy of two', undefined, large, 2, 1, true],
    ['unset, large spec, both cores busy', undefined, large, 2, 1.5, false],
    ['unset, large spec, one core', undefined, large, 1, 0, false],
    ['unset, large spec, eight cores, load 6', undefined, large, 8, 6, true],
    ['unset, small spec, idle cores', undefined, large - 1, 8, 0, false],
    ['on, small spec, busy cores', 'on', 1000, 2, 5, true],
    ['on, one core', 'on', large, 1, 0, true],
    ['off, large spec, idle cores', 'off', large, 8, 0, false],
  ])('%s', (_case, setting, bytes, cores, load, want) => {
    expect(threadWanted(setting, bytes, cores, load)).toBe(want);
  });

  it.each([
    ['a core idle since start, a load average from earlier runs', undefined, large, 2, 1.6, 1, true],
    ['no core idle since start, a low load average', undefined, large, 2, 0.2, 0.1, false],
    ['half a core idle', undefined, large, 2, 2, 0.5, true],
    ['idle cores, one core', undefined, large, 1, 0, 1, false],
    ['idle cores, small spec', undefined, large - 1, 2, 0, 1, false],
    ['off, idle cores', 'off', large, 2, 0, 1, false],
  ])('measured since start: %s', (_case, setting, bytes, cores, load, idle, want) => {
    expect(threadWanted(setting, bytes, cores, load, idle)).toBe(want);
  });
});

describe('idle cores from /proc/stat', () => {
  const stat = (user: number, idle: number, iowait: number) => `cpu  ${user} 0 10 ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 2 3 4\n`;

  it('reads the first line: all ticks, and idle plus iowait', () => {
    expect(sampleCpu(() => stat(100, 50, 5))).toEqual({ total: 165, idle: 55 });
  });

  it('gives undefined where there is no such line or no file', () => {
    expect(sampleCpu(() => 'intr 1 2 3\n')).toBeUndefined();
    expect(sampleCpu(() => 'cpu  1 2 x 4\n')).toBeUndefined();
    expect(
      sampleCpu(() => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });

  it('counts the cores idle on average between two samples, and not over too short a window', () => {
    const from = sampleCpu(() => stat(100, 50, 0))!;
    expect(idleCores(from, sampleCpu(() => stat(110, 60, 0))!, 2)).toBe(1);
    expect(idleCores(from, sampleCpu(() => stat(120, 50, 0))!, 2)).toBe(0);
    expect(idleCores(from, sampleCpu(() => stat(103, 52, 0))!, 2)).toBeUndefined();
  });

  it('is measured on this machine after a command starts', () => {
    markStart();
    const started = performance.now();
    while (performance.now() - started < 150);
    const idle = idleCoresSinceStart(availableParallelism());
    // Where /proc/stat exists the window holds enough ticks; at most every core sat idle.
    if (sampleCpu() !== undefined) expect(idle).toBeGreaterThanOrEqual(0);
    if (idle !== undefined) expect(idle).toBeLessThanOrEqual(availableParallelism());
  });
});

describe('the CLI with and without the thread', () => {
  const run = promisify(execFile);
  const disposers: (() => void)[] = [];
  afterEach(() => disposers.splice(0).forEach((dispose) => dispose()));

  it.each([
    ['path-item-ref', '"get-ip-address"'],
    ['../schemas/recursion', 'types: schema `ListB` contains itself'],
  ])('writes the same types.ts and reports the same loops for %s', async (fixture, expected) => {
    const outputs: string[] = [];
    for (const mode of ['on', 'off']) {
      const project = tempProject(fixture);
      disposers.push(project.dispose);
      const { stdout, stderr } = await run(process.execPath, [join(PROJECT, 'bin/teamchat.js'), 'generate', '--only', 'types'], {
        cwd: project.root,
        env: { ...process.env, TEAMCHAT_TYPES_THREAD: mode },
      });
      expect(stdout).toMatch(/^types +1 written/m);
      const messages = `${stdout}${stderr}`.replace(/ +\d+(\.\d+)? m?s$/gm, '').replace(/^generate done in .*$/m, '');
      outputs.push(`${readFileSync(join(project.root, 'generated/types.ts'), 'utf8')}\n---\n${messages}`);
    }
    expect(outputs[0]).toContain(expected);
    expect(outputs[0]).toBe(outputs[1]);
  });
});
