/**
 * The pipeline reads what a target declares, and names no target itself:
 * `dependsOn` gives `ctx.filesOf` another target's files (run once, even when
 * that target was not selected), and `peers` that are not installed skip the
 * target when nobody named the targets.
 */
import { describe, expect, it } from 'vitest';
import { produce } from '../../../generator/cli/pipeline.js';
import { resolveGenerateConfig } from '../../../generator/config.js';
import type { OutputFile, Target } from '../../../generator/targets/types.js';
import { repoRoot } from '../../support/process.js';

const SPEC = 'test/fixtures/schemas/arrays/openapi.yaml';

function fake(name: string, extra: Partial<Target> & { reads?: string[] } = {}): Target & { runs: number } {
  const target = {
    name,
    description: name,
    runs: 0,
    ...extra,
    async generate(ctx: Parameters<Target['generate']>[0]): Promise<OutputFile[]> {
      target.runs++;
      const read = await Promise.all((extra.reads ?? []).map((other) => ctx.filesOf(other)));
      return [{ path: `${ctx.outDir}/${name}.txt`, contents: read.flat().map((file) => file.contents).join('+') || name, ownership: 'generated' }];
    },
  };
  return target;
}

function config(targets: Target[], only: string | undefined) {
  return resolveGenerateConfig({ spec: SPEC, ...(only !== undefined && { only }) }, repoRoot, targets.map((t) => t.name));
}

describe('targets declare what they need', () => {
  it('hands a target the files of its dependsOn targets, running each once, written only when selected', async () => {
    const base = fake('base');
    const pack = fake('pack', { dependsOn: ['base'], reads: ['base'] });
    const also = fake('also', { dependsOn: ['base'], reads: ['base'] });
    const available = [base, pack, also];
    const produced = await produce(config(available, 'pack,also'), available);
    expect(produced.targets.map(({ target, files }) => [target.name, files.map((file) => file.contents)])).toEqual([
      ['pack', ['base']],
      ['also', ['base']],
    ]);
    expect(base.runs).toBe(1);
  });

  it('tells a target which targets this run produces: the chosen ones and what they read, transitively', async () => {
    const seen = new Map<string, Record<string, boolean>>();
    const asking = (name: string, extra: Partial<Target> = {}): Target => ({
      name,
      description: name,
      ...extra,
      async generate(ctx) {
        seen.set(name, Object.fromEntries(['base', 'mid', 'top', 'lone'].map((other) => [other, ctx.produces(other)])));
        for (const other of extra.dependsOn ?? []) await ctx.filesOf(other);
        return [];
      },
    });
    const available = [asking('base'), asking('mid', { dependsOn: ['base'] }), asking('top', { dependsOn: ['mid'] }), asking('lone')];
    await produce(config(available, 'top'), available);
    expect(seen.get('top')).toEqual({ base: true, mid: true, top: true, lone: false });
    seen.clear();
    await produce(config(available, 'lone'), available);
    expect(seen.get('lone')).toEqual({ base: false, mid: false, top: false, lone: true });
  });

  it('refuses files of a target the reader did not declare', async () => {
    const base = fake('base');
    const sneaky = fake('sneaky', { reads: ['base'] });
    await expect(produce(config([base, sneaky], 'sneaky'), [base, sneaky])).rejects.toThrow('the sneaky target reads the base target');
  });

  it('skips a target whose declared peer is missing when nobody named the targets, and runs it when named', async () => {
    const plain = fake('plain');
    const needy = fake('needy', { peers: ['teamchat-no-such-package'] });
    const reader = fake('reader', { dependsOn: ['needy'], reads: ['needy'] });
    const available = [plain, needy, reader];
    const skipped = await produce(config(available, undefined), available);
    expect(skipped.targets.map(({ target }) => target.name)).toEqual(['plain']);
    expect(skipped.reports).toContain(
      'the needy target was skipped: it needs teamchat-no-such-package (`npm install --save-dev teamchat-no-such-package`); name the targets with --only or `targets` to choose',
    );
    expect(skipped.reports.some((report) => report.startsWith('the reader target was skipped: it needs teamchat-no-such-package'))).toBe(true);
    const named = await produce(config(available, 'needy'), available);
    expect(named.targets.map(({ target }) => target.name)).toEqual(['needy']);
  });
});

describe('targets run side by side', () => {
  /** A target whose files wait for `release`, as one working in a thread does. */
  function waiting(name: string): Target & { release(): void } {
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    return {
      name,
      description: name,
      release: () => release(),
      async generate(ctx) {
        await gate;
        ctx.report(`${name} done`);
        return [{ path: `${ctx.outDir}/${name}.txt`, contents: name, ownership: 'generated' }];
      },
    };
  }

  it('starts the next target while one waits, and keeps registry order in files and reports', async () => {
    const slow = waiting('slow');
    const quick: Target = {
      name: 'quick',
      description: 'quick',
      generate(ctx) {
        // Had the pipeline waited for `slow` first, this would never run.
        slow.release();
        ctx.report('quick done');
        return [{ path: `${ctx.outDir}/quick.txt`, contents: 'quick', ownership: 'generated' }];
      },
    };
    const ready: string[] = [];
    const produced = await produce(config([slow, quick], undefined), [slow, quick], () => {}, (files) => ready.push(...files.map((f) => f.contents)));
    expect(produced.targets.map(({ target }) => target.name)).toEqual(['slow', 'quick']);
    expect(ready).toEqual(['quick', 'slow']);
    expect(produced.reports.filter((r) => r.endsWith(' done'))).toEqual(['slow done', 'quick done']);
  });

  it('reports the first failing target in registry order once all have settled, and stops what targets warmed up', async () => {
    const slow = waiting('slow');
    let stopped = 0;
    const failing: Target = {
      name: 'failing',
      description: 'failing',
      warmUp: () => ({ stop: () => stopped++ }),
      generate() {
        throw new Error('failing broke');
      },
    };
    const late: Target = {
      name: 'late',
      description: 'late',
      async generate() {
        slow.release();
        throw new Error('late broke');
      },
    };
    await expect(produce(config([slow, failing, late], undefined), [slow, failing, late])).rejects.toThrow('failing broke');
    expect(stopped).toBe(1);
  });

  it('hands a warmed-up target the document as loaded, before the model names its operations', async () => {
    const seen: unknown[] = [];
    const warmed: Target = {
      name: 'warmed',
      description: 'warmed',
      warmUp: () => ({
        loaded: (document) => seen.push(structuredClone(document)),
        stop: () => seen.push('stopped'),
      }),
      generate(ctx) {
        expect(ctx.warm).toBeDefined();
        return [];
      },
    };
    const produced = await produce(resolveGenerateConfig({ spec: 'test/fixtures/generator/path-item-ref/openapi.yaml' }, repoRoot, ['warmed']), [warmed]);
    expect(seen).toHaveLength(2);
    const paths = (seen[0] as { paths: Record<string, { get: { operationId?: string } }> }).paths;
    expect(paths['/ip-address']!.get.operationId).toBeUndefined();
    expect((produced.model.openapi as typeof seen[0] & { paths: typeof paths }).paths['/ip-address']!.get.operationId).toBe('get-ip-address');
    expect(seen[1]).toBe('stopped');
  });
});

