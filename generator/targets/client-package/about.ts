/** The client-package target as the registry knows it before a run imports it (`index.ts`). */
import type { TargetAbout } from '../types.js';

/** Targets whose TypeScript the package is compiled from; `query` gives none unless it was named. */
export const SOURCES = ['types', 'client', 'validators', 'query'] as const;

export const about: TargetAbout = {
  name: 'client-package',
  description: 'the client as a publishable package: ES modules, .d.ts, package.json, README',
  dependsOn: SOURCES,
};
