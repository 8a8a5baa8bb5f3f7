/** The server target as the registry knows it before a run imports it (`index.ts`). */
import type { TargetAbout } from '../types.js';

export const about: TargetAbout = {
  name: 'server',
  description: 'Fastify route bindings, the handlers index, mock handlers and handler scaffolds',
};
