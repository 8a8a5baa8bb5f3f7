// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /messages/flags/narrow: Update personal message flags for a narrow
 *
 * Parameters:
 * - `anchor` (string, body, required)
 * - `include_anchor` (boolean, body, optional)
 * - `num_before` (integer, body, required)
 * - `num_after` (integer, body, required)
 * - `narrow` (NarrowTerm[], body, required, JSON-encoded)
 * - `op` (MessageFlagOp, body, required)
 * - `flag` (string, body, required)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const updateMessageFlagsForNarrow: Handlers['updateMessageFlagsForNarrow'] = async (params, ctx) => {
  return {
    processed_count: 0,
    updated_count: 0,
    first_processed_id: null,
    last_processed_id: null,
    found_oldest: true,
    found_newest: true,
  };
};
