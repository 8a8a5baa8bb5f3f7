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
