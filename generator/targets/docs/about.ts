/** The docs target as the registry knows it before a run imports it (`index.ts`). */
import type { TargetAbout } from '../types.js';
import { DOCS_PEERS } from './peers.js';

export const about: TargetAbout = {
  name: 'docs',
  description: 'Reference pages per operation, changelog and index (markdown and HTML), and the Redocly page with its script',
  peers: DOCS_PEERS,
};
