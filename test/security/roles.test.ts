/**
 * The seed's role rules at a glance: every rule against every role of the
 * demo organization, on both databases. Each cell performs the operation as
 * that role and checks both the answer (success, or a 400 refusal) and the
 * effect read back from the database. The details of each rule (messages,
 * edge cases) live in the per-operation files of test/server/.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newCredentials } from '../../server/auth/credentials.js';
import { FOLDERS, GROUP, USER, USERS } from '../../server/seed/demo-data.js';
import { insertChannel, subscribe } from '../../server/store/channels.js';
import { setChannelGroupSetting, setRoleGroupMembership } from '../../server/store/groups.js';
import type { ChannelRow } from '../../server/store/rows.js';
import { insertUser } from '../../server/store/users.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const ROLES: Who[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];
const Y = true as boolean;
const N = false as boolean;
type Row = [owner: boolean, admin: boolean, moderator: boolean, member: boolean, guest: boolean, bot: boolean];

/**
 * Who may do what. "Channel admins" are the channel's can_administer_channel_group,
 * given to Dana (the member) alone. Administrators may edit any channel, but a
 * private channel's permission settings only while subscribed to it.
 */
const TABLE = {
  //                                                                     owner admin mod  member guest bot
  'update a channel folder':                                            [Y,    Y,    N,   N,     N,    N],
  'update another user':                                                [Y,    Y,    N,   N,     N,    N],
  'grant the owner role':                                               [Y,    N,    N,   N,     N,    N],
  'remove the owner role from another owner':                           [Y,    N,    N,   N,     N,    N],
  "change a user's email (owner holds can_change_user_emails)":         [Y,    N,    N,   N,     N,    N],
  "change a user's email (owner lacks can_change_user_emails)":         [N,    N,    N,   N,     N,    N],
  'update an allowed domain':                                           [Y,    N,    N,   N,     N,    N],
  'invite as owner':                                                    [Y,    N,    N,   N,     N,    N],
  'invite as administrator':                                            [Y,    Y,    N,   N,     N,    N],
  'invite as moderator':                                                [Y,    Y,    Y,   N,     N,    N],
  'invite as member':                                                   [Y,    Y,    Y,   Y,     N,    N],
  'invite as guest':                                                    [Y,    Y,    Y,   Y,     N,    N],
  'channel: edit a public channel':                                     [Y,    Y,    N,   N,     N,    N],
  'channel: edit a public channel with channel admins':                 [Y,    Y,    N,   Y,     N,    N],
  'channel: edit a private channel, unsubscribed':                      [Y,    Y,    N,   N,     N,    N],
  'channel: permission of a private channel, subscribed':               [Y,    Y,    N,   N,     N,    N],
  'channel: permission of a private channel, unsubscribed':             [N,    N,    N,   N,     N,    N],
  'channel: metadata permission, private, unsubscribed channel admin':  [Y,    N,    N,   Y,     N,    N],
  'channel: content permission, private, unsubscribed channel admin':   [Y,    N,    N,   N,     N,    N],
} satisfies Record<string, Row>;

/** One rule: the attempt as `who`, and whether its effect is in the database afterwards. */
interface Check {
  attempt(who: Who): Promise<unknown>;
  happened(who: Who): Promise<boolean>;
}

describe.each(drivers)('role rules of the seed on %s', (driver) => {
  let server: TestServer;
  /** A human account outside the matrix, so no role acts on itself. */
  let target: number;
  beforeAll(async () => {
    server = await startTestServer(driver);
    const { stored } = await newCredentials(server.services.secret, null);
    target = await server.db.transaction((tx) =>
      insertUser(tx, { email: 'target@example.com', fullName: 'Tess Target', role: 400, credentials: stored }),
    );
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.transaction(async (tx) => {
      const folder = FOLDERS[0]!;
      await tx.query('UPDATE channel_folders SET description = $2, rendered_description = $3 WHERE id = $1', [folder.id, folder.description, `<p>${folder.description}</p>`]);
      await tx.query(`UPDATE users SET full_name = 'Tess Target', role = 400, email = 'target@example.com', delivery_email = 'target@example.com' WHERE id = $1`, [target]);
      await setRoleGroupMembership(tx, target, 400);
      await tx.query('UPDATE users SET can_change_user_emails = (id = $1) WHERE id = ANY ($2::integer[])', [USER.ada, USERS.map((u) => u.id)]);
      await tx.query('UPDATE realm_domains SET allow_subdomains = false');
      await tx.query('DELETE FROM invitations');
    });
  });

  const as = (who: Who) => server.client(who);
  const one = async <T>(sql: string, params: unknown[]): Promise<T> => (await server.db.query<T>(sql, params)).rows[0]!;
  const targetRow = () => one<{ full_name: string; role: number; email: string }>('SELECT full_name, role, email FROM users WHERE id = $1', [target]);
  const channelRow = (id: number) => one<ChannelRow>('SELECT * FROM channels WHERE id = $1', [id]);

  let channels = 0;
  /** A fresh channel per cell: nobody administers it through the channel setting unless `admins` says so. */
  async function makeChannel(options: { isPrivate?: boolean; subscribers: number[]; admins?: boolean }): Promise<number> {
    return server.db.transaction(async (tx) => {
      const id = await insertChannel(tx, {
        name: `roles-${driver}-${++channels}`,
        isPrivate: options.isPrivate ?? false,
        groups: {
          canAddSubscribers: GROUP['role:nobody'],
          canRemoveSubscribers: GROUP['role:administrators'],
          canAdminister: GROUP['role:nobody'],
          canDeleteAnyMessage: GROUP['role:nobody'],
          canDeleteOwnMessage: GROUP['role:everyone'],
          canSendMessage: GROUP['role:everyone'],
          canCreateTopic: GROUP['role:everyone'],
        },
      });
      for (const userId of options.subscribers) await subscribe(tx, userId, id);
      if (options.admins) {
        await setChannelGroupSetting(tx, id, 'can_administer_channel_group', { direct_members: [USER.dana], direct_subgroups: [] });
      }
      return id;
    });
  }
  const EVERYONE = [USER.ada, USER.ben, USER.chen, USER.dana, USER.eli, USER.deployBot];

  /** A channel edit: a fresh channel, one update, its effect read back. */
  function channelCheck(
    channel: Parameters<typeof makeChannel>[0],
    change: 'description' | 'can_remove_subscribers_group' | 'can_add_subscribers_group',
  ): Check {
    let id = 0;
    return {
      attempt: async (who) => {
        id = await makeChannel(channel);
        return change === 'description'
          ? as(who).updateStream({ stream_id: id, description: `by ${who}` })
          : as(who).updateStream({ stream_id: id, [change]: { new: GROUP['role:members'] } });
      },
      happened: async (who) => {
        const row = await channelRow(id);
        return change === 'description' ? row.description === `by ${who}` : row[`${change}_id`] === GROUP['role:members'];
      },
    };
  }

  function inviteCheck(role: 100 | 200 | 300 | 400 | 600): Check {
    const email = (who: Who) => `invited-${role}-${who}@example.com`;
    return {
      attempt: (who) => as(who).sendInvites({ invitee_emails: email(who), stream_ids: [], invite_as: role }),
      happened: async (who) => (await server.db.query('SELECT 1 FROM invitations WHERE email = $1 AND invite_as = $2', [email(who), role])).rows.length === 1,
    };
  }

  const emailCheck: Check = {
    attempt: (who) => as(who).updateUser({ user_id: target, new_email: `target-${who}@example.com` }),
    happened: async (who) => (await targetRow()).email === `target-${who}@example.com`,
  };

  const CHECKS: Record<keyof typeof TABLE, Check> = {
    'update a channel folder': {
      attempt: (who) => as(who).updateChannelFolder({ channel_folder_id: 1, description: `by ${who}` }),
      happened: async (who) => (await one<{ description: string }>('SELECT description FROM channel_folders WHERE id = 1', [])).description === `by ${who}`,
    },
    'update another user': {
      attempt: (who) => as(who).updateUser({ user_id: target, full_name: `Renamed by ${who}` }),
      happened: async (who) => (await targetRow()).full_name === `Renamed by ${who}`,
    },
    'grant the owner role': {
      attempt: (who) => as(who).updateUser({ user_id: target, role: 100 }),
      happened: async () => (await targetRow()).role === 100,
    },
    'remove the owner role from another owner': {
      attempt: async (who) => {
        await server.db.transaction(async (tx) => {
          await tx.query('UPDATE users SET role = 100 WHERE id = $1', [target]);
          await setRoleGroupMembership(tx, target, 100);
        });
        return as(who).updateUser({ user_id: target, role: 400 });
      },
      happened: async () => (await targetRow()).role === 400,
    },
    "change a user's email (owner holds can_change_user_emails)": emailCheck,
    "change a user's email (owner lacks can_change_user_emails)": {
      attempt: async (who) => {
        await server.db.query('UPDATE users SET can_change_user_emails = false');
        return emailCheck.attempt(who);
      },
      happened: emailCheck.happened,
    },
    'update an allowed domain': {
      attempt: (who) => as(who).updateRealmDomain({ domain: 'example.com', allow_subdomains: true }),
      happened: async () => (await one<{ allow_subdomains: boolean }>('SELECT allow_subdomains FROM realm_domains WHERE domain = $1', ['example.com'])).allow_subdomains,
    },
    'invite as owner': inviteCheck(100),
    'invite as administrator': inviteCheck(200),
    'invite as moderator': inviteCheck(300),
    'invite as member': inviteCheck(400),
    'invite as guest': inviteCheck(600),
    'channel: edit a public channel': channelCheck({ subscribers: EVERYONE }, 'description'),
    'channel: edit a public channel with channel admins': channelCheck({ subscribers: EVERYONE, admins: true }, 'description'),
    'channel: edit a private channel, unsubscribed': channelCheck({ isPrivate: true, subscribers: [USER.chen] }, 'description'),
    'channel: permission of a private channel, subscribed': channelCheck({ isPrivate: true, subscribers: EVERYONE }, 'can_remove_subscribers_group'),
    'channel: permission of a private channel, unsubscribed': channelCheck({ isPrivate: true, subscribers: [USER.chen] }, 'can_remove_subscribers_group'),
    'channel: metadata permission, private, unsubscribed channel admin': channelCheck(
      { isPrivate: true, subscribers: [USER.ada], admins: true },
      'can_remove_subscribers_group',
    ),
    'channel: content permission, private, unsubscribed channel admin': channelCheck(
      { isPrivate: true, subscribers: [USER.ada], admins: true },
      'can_add_subscribers_group',
    ),
  };

  const cells = Object.entries(TABLE).flatMap(([rule, row]) => ROLES.map((who, i) => [rule, who, row[i]!] as const));

  it.each(cells)('%s as %s: allowed %s', async (rule, who, allowed) => {
    const check = CHECKS[rule as keyof typeof TABLE];
    const outcome = await check.attempt(who).then(
      () => 'allowed',
      (error: unknown) => error,
    );
    if (allowed) expect(outcome).toBe('allowed');
    else expect(outcome).toMatchObject({ name: 'ApiError', status: 400, code: 'BAD_REQUEST' });
    expect(await check.happened(who)).toBe(allowed);
  });
});
