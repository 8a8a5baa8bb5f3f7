/** The package the generated `query.ts` takes its types from, and the versions it is written for. */
export const QUERY_PEERS = ['@tanstack/query-core'] as const;

/** The range the client package declares for it: the major version whose types `query-runtime/` uses, from the release it is tested with. */
export const QUERY_PEER_RANGE = '^5.108.0';
