import { describe, expect, it } from 'vitest';
import { lazyTarget, targets } from '../../../generator/targets/index.js';
import type { Target, TargetContext } from '../../../generator/targets/types.js';

const modules: Record<string, () => Promise<{ target: Target }>> = {
  types: () => import('../../../generator/targets/types/index.js'),
  validators: () => import('../../../generator/targets/validators/index.js'),
  client: () => import('../../../generator/targets/client/index.js'),
  query: () => import('../../../generator/targets/query/index.js'),
  'client-package': () => import('../../../generator/targets/client-package/index.js'),
  server: () => import('../../../generator/targets/server/index.js'),
  docs: () => import('../../../generator/targets/docs/index.js'),
};

const described = ({ name, description, peers, dependsOn, byDefault }: Target) => ({ name, description, peers, dependsOn, byDefault });

describe('the registry', () => {
  it('says of each target what its module says', async () => {
    expect(targets.map((t) => t.name)).toEqual(Object.keys(modules));
    for (const entry of targets) {
      const { target } = await modules[entry.name]!();
      expect(described(entry)).toEqual(described(target));
      expect(entry.warmUp).toBe(target.warmUp);
    }
  });

  it('imports a target only when it runs, and runs its generate then', async () => {
    let loads = 0;
    const files = [{ path: 'out/a.ts', contents: 'a\n', ownership: 'generated' as const }];
    const real: Target = { name: 'real', description: 'd', generate: (ctx) => [{ ...files[0]!, path: `${ctx.outDir}/a.ts` }] };
    const entry = lazyTarget({ name: 'real', description: 'd' }, async () => {
      loads += 1;
      return { target: real };
    });
    expect(loads).toBe(0);
    await expect(entry.generate({ outDir: 'out' } as TargetContext)).resolves.toEqual(files);
    expect(loads).toBe(1);
  });
});
