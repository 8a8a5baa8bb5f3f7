// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';

/**
 * POST /messages/{message_id}/report: Report a message
 *
 * Parameters:
 * - `message_id` (integer, path, required)
 * - `report_type` (ReportType, body, required)
 * - `description` (string, body, optional)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const reportMessage: Handlers['reportMessage'] = async (params, ctx) => {
  return {};
};
