/** The client target as the registry knows it before a run imports it (`index.ts`). */
import type { TargetAbout } from '../types.js';

export const about: TargetAbout = {
  name: 'client',
  description: 'typed fetch client (generated/client.ts)',
};
