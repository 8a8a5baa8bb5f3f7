/**
 * The registry: every output target, in the order they run and report.
 * Adding a target means adding its folder under `generator/targets/` and one
 * line here. A target's module (and all it imports) is loaded only when a
 * run starts it: the registry holds what its `about.ts` says. `types` is
 * imported as it is, since its `warmUp` runs before anything is awaited.
 */
import { about as client } from './client/about.js';
import { about as clientPackage } from './client-package/about.js';
import { about as docs } from './docs/about.js';
import { about as server } from './server/about.js';
import { about as query } from './query/about.js';
import type { OutputFile, Target, TargetAbout, TargetContext } from './types.js';
import { target as types } from './types/index.js';
import { about as validators } from './validators/about.js';

/** `about`, whose work is `load()`'s target's, imported on first use. */
export function lazyTarget(about: TargetAbout, load: () => Promise<{ target: Target }>): Target {
  return {
    ...about,
    async generate(ctx: TargetContext): Promise<OutputFile[]> {
      return (await load()).target.generate(ctx);
    },
  };
}

export const targets: readonly Target[] = [
  types,
  lazyTarget(validators, () => import('./validators/index.js')),
  lazyTarget(client, () => import('./client/index.js')),
  lazyTarget(query, () => import('./query/index.js')),
  lazyTarget(clientPackage, () => import('./client-package/index.js')),
  lazyTarget(server, () => import('./server/index.js')),
  lazyTarget(docs, () => import('./docs/index.js')),
];

export const targetNames: readonly string[] = targets.map((t) => t.name);
