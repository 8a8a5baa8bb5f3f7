import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GROUP, USER } from '../../server/seed/demo-data.js';
import { directSubgroupIds, isUserInGroup, storeGroupSettingValue } from '../../server/store/groups.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });

describe.each(drivers)('update-user-group-subgroups on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  // Back to the seed: engineering = {backend, frontend}, the others without custom subgroups.
  afterEach(async () => {
    await server.db.query('DELETE FROM user_group_subgroups WHERE group_id IN ($1, $2, $3)', [GROUP.backend, GROUP.frontend, GROUP.engineering]);
    await server.db.query('INSERT INTO user_group_subgroups (group_id, subgroup_id) VALUES ($1, $2), ($1, $3)', [
      GROUP.engineering,
      GROUP.backend,
      GROUP.frontend,
    ]);
    await server.db.query('UPDATE user_groups SET deactivated = false WHERE id = $1', [GROUP.engineering]);
    await server.db.query('UPDATE users SET role = 400 WHERE id = $1', [USER.deployBot]);
  });

  const subgroups = (id: number) => directSubgroupIds(server.db, id);

  it.each<[Who, boolean]>([
    ['owner', true],
    ['admin', true],
    ['moderator', false],
    ['member', false],
    ['guest', false],
    ['bot', false],
  ])('as %s: allowed %s', async (who, allowed) => {
    const request = server.client(who).updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [GROUP['role:moderators']], delete: [GROUP.frontend] });
    if (allowed) {
      await expect(request).resolves.toEqual({ result: 'success', msg: '' });
      expect(await subgroups(GROUP.engineering)).toEqual([GROUP['role:moderators'], GROUP.backend]);
    } else {
      await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect(await subgroups(GROUP.engineering)).toEqual([GROUP.backend, GROUP.frontend]);
    }
  });

  it('lets a bot with the administrator role change subgroups', async () => {
    await server.db.query('UPDATE users SET role = 200 WHERE id = $1', [USER.deployBot]);
    await server.client('bot').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, delete: [GROUP.backend] });
    expect(await subgroups(GROUP.engineering)).toEqual([GROUP.frontend]);
  });

  it('adds and removes several groups at once, ignoring repeats', async () => {
    const admin = server.client('admin');
    await admin.updateUserGroupSubgroups({ user_group_id: GROUP.backend, add: [GROUP.frontend, GROUP['role:owners'], GROUP.frontend] });
    expect(await subgroups(GROUP.backend)).toEqual([GROUP['role:owners'], GROUP.frontend]);
    await admin.updateUserGroupSubgroups({ user_group_id: GROUP.backend, delete: [GROUP.frontend, GROUP['role:owners']] });
    expect(await subgroups(GROUP.backend)).toEqual([]);
  });

  it('changes nothing and succeeds without add or delete', async () => {
    await expect(server.client('admin').updateUserGroupSubgroups({ user_group_id: GROUP.engineering })).resolves.toEqual({ result: 'success', msg: '' });
    await server.client('admin').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [], delete: [] });
    expect(await subgroups(GROUP.engineering)).toEqual([GROUP.backend, GROUP.frontend]);
  });

  it('refuses an unknown group, as target or as subgroup', async () => {
    const admin = server.client('admin');
    await expect(admin.updateUserGroupSubgroups({ user_group_id: 42, add: [GROUP.backend] })).rejects.toEqual(refused(/^Invalid user group ID 42$/));
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP.backend, add: [42] })).rejects.toEqual(refused(/^Invalid user group ID 42$/));
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP.engineering, delete: [43] })).rejects.toEqual(refused(/^Invalid user group ID 43$/));
  });

  it('treats an anonymous group (a setting value) as unknown', async () => {
    const anonymous = await server.db.transaction((tx) => storeGroupSettingValue(tx, { direct_members: [USER.dana], direct_subgroups: [] }));
    const admin = server.client('admin');
    await expect(admin.updateUserGroupSubgroups({ user_group_id: anonymous, add: [GROUP.backend] })).rejects.toEqual(refused(`^Invalid user group ID ${anonymous}$`));
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP.backend, add: [anonymous] })).rejects.toEqual(refused(`^Invalid user group ID ${anonymous}$`));
    await server.db.query('DELETE FROM user_groups WHERE id = $1', [anonymous]);
  });

  it('refuses to change the subgroups of a system group, but accepts system groups as subgroups', async () => {
    const admin = server.client('admin');
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP['role:members'], delete: [GROUP['role:fullmembers']] })).rejects.toEqual(
      refused(/system group/),
    );
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP['role:nobody'], add: [GROUP.backend] })).rejects.toEqual(refused(/system group/));
    expect(await subgroups(GROUP['role:members'])).toEqual([GROUP['role:fullmembers']]);
    await admin.updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [GROUP['role:moderators']] });
    expect(await subgroups(GROUP.engineering)).toContain(GROUP['role:moderators']);
  });

  it('refuses to add a group that already is a subgroup, changing nothing', async () => {
    await expect(
      server.client('admin').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [GROUP['role:moderators'], GROUP.backend] }),
    ).rejects.toEqual(refused(/^Group 9 is already a subgroup of this group$/));
    expect(await subgroups(GROUP.engineering)).toEqual([GROUP.backend, GROUP.frontend]);
  });

  it('refuses to remove a group that is not a subgroup, changing nothing', async () => {
    await expect(
      server.client('admin').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [GROUP['role:owners']], delete: [GROUP['role:moderators']] }),
    ).rejects.toEqual(refused(/^Group 5 is not a subgroup of this group$/));
    expect(await subgroups(GROUP.engineering)).toEqual([GROUP.backend, GROUP.frontend]);
  });

  it('refuses a group in both lists', async () => {
    await expect(
      server.client('admin').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [GROUP.backend], delete: [GROUP.backend] }),
    ).rejects.toEqual(refused(/both added and removed/));
  });

  it('refuses direct, indirect and self cycles, changing nothing', async () => {
    const admin = server.client('admin');
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP.backend, add: [GROUP.engineering] })).rejects.toEqual(
      refused(/^Adding group 11 as a subgroup of group 9 would create a cycle$/),
    );
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP.engineering, add: [GROUP.engineering] })).rejects.toEqual(refused(/cycle/));
    // frontend ⊂ engineering; backend ⊂ frontend would leave engineering ⊂ backend closing the loop.
    await admin.updateUserGroupSubgroups({ user_group_id: GROUP.frontend, add: [GROUP.backend] });
    await expect(admin.updateUserGroupSubgroups({ user_group_id: GROUP.backend, add: [GROUP['role:owners'], GROUP.engineering] })).rejects.toEqual(
      refused(/^Adding group 11 as a subgroup of group 9 would create a cycle$/),
    );
    expect(await subgroups(GROUP.backend)).toEqual([]);
  });

  it('edits the subgroups of a deactivated group', async () => {
    await server.db.query('UPDATE user_groups SET deactivated = true WHERE id = $1', [GROUP.engineering]);
    await server.client('owner').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, delete: [GROUP.frontend] });
    expect(await subgroups(GROUP.engineering)).toEqual([GROUP.backend]);
  });

  it('changes who belongs to the group through its subgroups', async () => {
    expect(await isUserInGroup(server.db, USER.chen, GROUP.engineering)).toBe(true);
    await server.client('admin').updateUserGroupSubgroups({ user_group_id: GROUP.engineering, delete: [GROUP.frontend] });
    expect(await isUserInGroup(server.db, USER.chen, GROUP.engineering)).toBe(false);
    expect(await isUserInGroup(server.db, USER.dana, GROUP.engineering)).toBe(true);
  });

  it('refuses lists that are not JSON arrays of integers', async () => {
    const { email, apiKey } = server.logins.admin;
    const response = await fetch(`${server.url}/api/v1/user_groups/${GROUP.engineering}/subgroups`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'add=%5B%22x%22%5D',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });
});
