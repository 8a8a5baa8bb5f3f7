/** The query target as the registry knows it before a run imports it (`index.ts`). */
import type { TargetAbout } from '../types.js';
import { QUERY_PEERS } from './peer.js';

export const about: TargetAbout = {
  name: 'query',
  description: 'TanStack Query options per operation (generated/query.ts); runs only when named',
  peers: QUERY_PEERS,
  byDefault: false,
};
