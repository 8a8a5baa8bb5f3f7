import type { Db } from './db.js';
import type { Role } from './rows.js';

export interface NewInvitation {
  inviterId: number;
  email: string;
  inviteAs: Role;
  createdAt: number;
  /** null: never expires. */
  expiresAt: number | null;
  includeRealmDefaultSubscriptions: boolean;
  notifyReferrerOnJoin: boolean;
  welcomeMessageCustomText: string | null;
  channelIds: readonly number[];
  groupIds: readonly number[];
}

/** Stores one invitation with its channels and groups; returns its id. */
export async function insertInvitation(tx: Db, invitation: NewInvitation): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO invitations (inviter_id, email, invite_as, created_at, expires_at, include_realm_default_subscriptions,
       notify_referrer_on_join, welcome_message_custom_text)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      invitation.inviterId,
      invitation.email,
      invitation.inviteAs,
      invitation.createdAt,
      invitation.expiresAt,
      invitation.includeRealmDefaultSubscriptions,
      invitation.notifyReferrerOnJoin,
      invitation.welcomeMessageCustomText,
    ],
  );
  const id = rows[0]!.id;
  await tx.query('INSERT INTO invitation_channels (invitation_id, channel_id) SELECT $1, unnest($2::integer[])', [id, invitation.channelIds]);
  await tx.query('INSERT INTO invitation_groups (invitation_id, group_id) SELECT $1, unnest($2::integer[])', [id, invitation.groupIds]);
  return id;
}
