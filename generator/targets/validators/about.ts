/** The validators target as the registry knows it before a run imports it (`index.ts`). */
import type { TargetAbout } from '../types.js';

export const about: TargetAbout = {
  name: 'validators',
  description: 'request decoders and response validators (generated straight-line checks)',
};
