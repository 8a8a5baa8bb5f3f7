// Scaffolded by `npm run generate` because this file was missing; from now on it is hand-written.
import type { Handlers } from '../../generated/server.js';
import { sendInvites as invite } from '../domain/invitations.js';
import { services } from '../services.js';

/**
 * POST /invites: Send invitations
 *
 * Parameters:
 * - `invitee_emails` (string, body, required)
 * - `invite_expires_in_minutes` (integer | null, body, optional, JSON-encoded)
 * - `invite_as` (Role, body, optional)
 * - `stream_ids` (integer[], body, required, JSON-encoded)
 * - `group_ids` (integer[], body, optional, JSON-encoded)
 * - `include_realm_default_subscriptions` (boolean, body, optional)
 * - `notify_referrer_on_join` (boolean, body, optional)
 * - `welcome_message_custom_text` (string | null, body, optional, JSON-encoded)
 *
 * This comment, the type annotation and the `Handlers` import follow the spec through `npm run generate`;
 * the rest of the file is hand-written and left alone.
 */
export const sendInvites: Handlers['sendInvites'] = async (params, ctx) => {
  // Omitted means undefined here (the spec gives no default), so the
  // INVITATION_LINK_VALIDITY_MINUTES setting applies in the domain.
  await invite(services(ctx.request), ctx.user, params);
  return {};
};
