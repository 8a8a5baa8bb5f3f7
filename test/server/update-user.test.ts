import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_VALUES, USERS } from '../../server/seed/demo-data.js';
import { setRoleGroupMembership } from '../../server/store/groups.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });
const success = { result: 'success', msg: '' };
const ADA = 2;
const BEN = 3;
const DANA = 5;
const ELI = 6;
const DATE_FIELD = 5;
const CHOICE_FIELD = 6;
const ROLES: Who[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];
const ADMINS = new Set<Who>(['owner', 'admin']);

describe.each(drivers)('update-user on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
    await server.db.query(
      `INSERT INTO custom_profile_fields (id, name, field_type, field_data, sort_order) VALUES
         ($1, 'Birthday', 'date', '{}', 5),
         ($2, 'Team', 'choice', '{"infra": {"text": "Infrastructure", "order": "1"}, "apps": {"text": "Apps", "order": "2"}}', 6)`,
      [DATE_FIELD, CHOICE_FIELD],
    );
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.transaction(async (tx) => {
      for (const user of USERS) {
        await tx.query('UPDATE users SET full_name = $2, role = $3, email = $4, delivery_email = $4, can_change_user_emails = $5 WHERE id = $1', [
          user.id,
          user.fullName,
          user.role,
          user.email,
          user.id === ADA,
        ]);
        await setRoleGroupMembership(tx, user.id, user.role);
      }
      await tx.query('DELETE FROM custom_profile_values');
      for (const value of PROFILE_VALUES) {
        await tx.query('INSERT INTO custom_profile_values (user_id, field_id, value, rendered_value) VALUES ($1, $2, $3, $4)', [
          value.userId,
          value.fieldId,
          value.value,
          value.rendered,
        ]);
      }
      await tx.query('UPDATE realm_domains SET allow_subdomains = false');
    });
  });

  const user = async (id: number) =>
    (await server.db.query<{ full_name: string; role: number; email: string; delivery_email: string }>(
      'SELECT full_name, role, email, delivery_email FROM users WHERE id = $1',
      [id],
    )).rows[0]!;
  const systemGroups = async (id: number) =>
    (await server.db.query<{ name: string }>(
      'SELECT g.name FROM user_group_members m JOIN user_groups g ON g.id = m.group_id WHERE m.user_id = $1 AND g.is_system_group ORDER BY g.name',
      [id],
    )).rows.map((row) => row.name);
  const profile = async (id: number) =>
    Object.fromEntries(
      (await server.db.query<{ field_id: number; value: string; rendered_value: string | null }>(
        'SELECT field_id, value, rendered_value FROM custom_profile_values WHERE user_id = $1 ORDER BY field_id',
        [id],
      )).rows.map((row) => [row.field_id, row.rendered_value === null ? row.value : [row.value, row.rendered_value]]),
    );
  const as = (who: Who) => server.client(who);

  describe('role matrix', () => {
    it.each(ROLES)('full_name as %s', async (who) => {
      const request = as(who).updateUser({ user_id: DANA, full_name: 'Dana K.' });
      if (ADMINS.has(who)) await expect(request).resolves.toEqual(success);
      else await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect((await user(DANA)).full_name).toBe(ADMINS.has(who) ? 'Dana K.' : 'Dana Kim');
    });

    it.each(ROLES)('role as %s', async (who) => {
      const request = as(who).updateUser({ user_id: DANA, role: 300 });
      if (ADMINS.has(who)) await expect(request).resolves.toEqual(success);
      else await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect((await user(DANA)).role).toBe(ADMINS.has(who) ? 300 : 400);
    });

    it.each(ROLES)('owner role as %s', async (who) => {
      const request = as(who).updateUser({ user_id: DANA, role: 100 });
      if (who === 'owner') await expect(request).resolves.toEqual(success);
      else if (who === 'admin') await expect(request).rejects.toEqual(refused(/^Only organization owners can add or remove the owner role$/));
      else await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect((await user(DANA)).role).toBe(who === 'owner' ? 100 : 400);
    });

    it.each(ROLES)('profile_data as %s', async (who) => {
      const request = as(who).updateUser({ user_id: DANA, profile_data: [{ id: 1, value: '+1 555 0199' }] });
      if (ADMINS.has(who)) await expect(request).resolves.toEqual(success);
      else await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect((await profile(DANA))[1]).toBe(ADMINS.has(who) ? '+1 555 0199' : '+1 555 0105');
    });

    it.each(ROLES)('new_email as %s', async (who) => {
      const request = as(who).updateUser({ user_id: DANA, new_email: 'dana.kim@example.com' });
      if (who === 'owner') await expect(request).resolves.toEqual(success);
      else if (who === 'admin') await expect(request).rejects.toEqual(refused(/^Changing email addresses needs an owner/));
      else await expect(request).rejects.toEqual(refused(/^Must be an organization administrator/));
      expect((await user(DANA)).email).toBe(who === 'owner' ? 'dana.kim@example.com' : 'member@example.com');
    });
  });

  describe('full_name', () => {
    it('stores the trimmed name', async () => {
      await as('admin').updateUser({ user_id: DANA, full_name: '  Dana Kim-Park  ' });
      expect((await user(DANA)).full_name).toBe('Dana Kim-Park');
    });

    it.each([
      ['empty', '   ', /^Name cannot be empty$/],
      ['over 100 code points', 'é'.repeat(101), /^Name is too long \(limit 100 characters\)$/],
      ['with a control character', 'Dana\u0007Kim', /^Name contains invalid characters$/],
    ])('refuses a name %s', async (_case, fullName, msg) => {
      await expect(as('admin').updateUser({ user_id: DANA, full_name: fullName })).rejects.toEqual(refused(msg));
      expect((await user(DANA)).full_name).toBe('Dana Kim');
    });

    it('accepts exactly 100 code points', async () => {
      await as('admin').updateUser({ user_id: DANA, full_name: '😀'.repeat(100) });
      expect((await user(DANA)).full_name).toBe('😀'.repeat(100));
    });
  });

  describe('role', () => {
    it('keeps the system groups in step with the role', async () => {
      await as('admin').updateUser({ user_id: DANA, role: 300 });
      expect(await systemGroups(DANA)).toEqual(['role:moderators']);
      await as('owner').updateUser({ user_id: DANA, role: 100 });
      expect(await systemGroups(DANA)).toEqual(['role:owners']);
      await as('owner').updateUser({ user_id: DANA, role: 600 });
      expect(await systemGroups(DANA)).toEqual(['role:everyone']);
      await as('admin').updateUser({ user_id: DANA, role: 400 });
      expect(await systemGroups(DANA)).toEqual(['role:fullmembers', 'role:members']);
    });

    it('lets an owner add and then remove the owner role while another owner remains', async () => {
      await as('owner').updateUser({ user_id: BEN, role: 100 });
      expect((await user(BEN)).role).toBe(100);
      await as('owner').updateUser({ user_id: BEN, role: 200 });
      expect(await user(BEN)).toMatchObject({ role: 200 });
      expect(await systemGroups(BEN)).toEqual(['role:administrators']);
    });

    it('refuses an administrator removing the owner role', async () => {
      await expect(as('admin').updateUser({ user_id: ADA, role: 200 })).rejects.toEqual(refused(/^Only organization owners can add or remove the owner role$/));
      expect((await user(ADA)).role).toBe(100);
    });

    it('keeps the only owner an owner, even when it demotes itself', async () => {
      await expect(as('owner').updateUser({ user_id: ADA, role: 200 })).rejects.toEqual(refused(/^The organization must keep at least one owner$/));
      expect((await user(ADA)).role).toBe(100);
      expect(await systemGroups(ADA)).toEqual(['role:owners']);
    });

    it('lets an owner step down once there is a second owner', async () => {
      await as('owner').updateUser({ user_id: BEN, role: 100 });
      await as('owner').updateUser({ user_id: ADA, role: 200 });
      expect((await user(ADA)).role).toBe(200);
      // Ben is now the only owner; Ada, an administrator, may not demote him, nor may he step down.
      await expect(as('owner').updateUser({ user_id: BEN, role: 200 })).rejects.toEqual(refused(/^Only organization owners/));
      await expect(as('admin').updateUser({ user_id: BEN, role: 200 })).rejects.toEqual(refused(/^The organization must keep at least one owner$/));
    });

    it.each([
      [200, 'owner'],
      [100, 'owner'],
    ] as const)('refuses making a guest role %i', async (role, who) => {
      await expect(as(who).updateUser({ user_id: ELI, role })).rejects.toEqual(refused(/^Guests cannot be organization administrators$/));
      expect((await user(ELI)).role).toBe(600);
    });

    it('lets a guest become a member or moderator', async () => {
      await as('admin').updateUser({ user_id: ELI, role: 300 });
      expect((await user(ELI)).role).toBe(300);
      expect(await systemGroups(ELI)).toEqual(['role:moderators']);
    });

    it('changes nothing when a later parameter is refused', async () => {
      await expect(as('admin').updateUser({ user_id: DANA, role: 300, full_name: 'Changed', new_email: 'x@example.com' })).rejects.toEqual(
        refused(/can_change_user_emails/),
      );
      expect(await user(DANA)).toMatchObject({ role: 400, full_name: 'Dana Kim', email: 'member@example.com' });
    });

    it('lets an administrator change a bot', async () => {
      await as('admin').updateUser({ user_id: 7, role: 300, full_name: 'Release Bot' });
      expect(await user(7)).toMatchObject({ role: 300, full_name: 'Release Bot' });
    });
  });

  describe('target', () => {
    it.each([
      ['an unknown id', 999],
      ['the server-owned notification bot', 1],
      ['an id beyond 32 bits', 3_000_000_000],
    ])('refuses %s', async (_case, userId) => {
      await expect(as('admin').updateUser({ user_id: userId, full_name: 'X' })).rejects.toEqual(refused(/^No such user$/));
    });

    it('checks the caller before the target', async () => {
      await expect(as('member').updateUser({ user_id: 999, full_name: 'X' })).rejects.toEqual(refused(/^Must be an organization administrator/));
    });
  });

  describe('profile_data', () => {
    it('sets, replaces and removes values, and the user sees them', async () => {
      await as('admin').updateUser({
        user_id: DANA,
        profile_data: [
          { id: 1, value: '+1 555 0100' },
          { id: 3, value: [4, 3] },
          { id: 2, value: 'https://dana.example.com' },
          { id: 4, value: null },
        ],
      });
      expect(await profile(DANA)).toEqual({ 1: '+1 555 0100', 2: 'https://dana.example.com', 3: '[4,3]' });
      const me = await as('member').getOwnUser();
      expect(me.profile_data).toEqual({ '1': { value: '+1 555 0100' }, '2': { value: 'https://dana.example.com' }, '3': { value: '[4,3]' } });
      await as('admin').updateUser({ user_id: DANA, profile_data: [{ id: 2, value: null }, { id: 3, value: [] }, { id: 1, value: '' }] });
      expect(await profile(DANA)).toEqual({});
    });

    it('renders long text with markdown and the linkifiers', async () => {
      await as('owner').updateUser({ user_id: BEN, profile_data: [{ id: 4, value: 'Fixing **#42** <b>now</b>' }] });
      expect(await profile(BEN)).toEqual({
        4: [
          'Fixing **#42** <b>now</b>',
          '<p>Fixing <strong><a href="https://github.com/lakeside/app/issues/42">#42</a></strong> &lt;b&gt;now&lt;/b&gt;</p>',
        ],
      });
      const me = await as('admin').getOwnUser();
      expect(me.profile_data?.['4']?.rendered_value).toContain('<strong>');
    });

    it('accepts a date and a choice key', async () => {
      await as('admin').updateUser({ user_id: DANA, profile_data: [{ id: DATE_FIELD, value: '2024-02-29' }, { id: CHOICE_FIELD, value: 'infra' }] });
      expect(await profile(DANA)).toMatchObject({ [DATE_FIELD]: '2024-02-29', [CHOICE_FIELD]: 'infra' });
    });

    it.each([
      ['an unknown field', [{ id: 99, value: 'x' }], /^Invalid custom profile field ID 99$/],
      ['a field id beyond 32 bits', [{ id: 3_000_000_000, value: 'x' }], /^Invalid custom profile field ID 3000000000$/],
      ['the same field twice', [{ id: 1, value: 'a' }, { id: 1, value: 'b' }], /given twice/],
      ['a link that is not a URL', [{ id: 2, value: 'dana dot example' }], /^Website must be a URL$/],
      ['a link with another scheme', [{ id: 2, value: 'javascript:alert(1)' }], /^Website must be a URL$/],
      ['text for a users field', [{ id: 3, value: '4' }], /^Mentor needs a list of user IDs$/],
      ['an unknown user', [{ id: 3, value: [4, 999] }], /^Mentor: invalid user ID 999$/],
      ['a list for a text field', [{ id: 1, value: [4] }], /^Phone needs a text value/],
      ['two lines of short text', [{ id: 1, value: 'line one\nline two' }], /^Phone must be one line$/],
      ['short text over 50 code points', [{ id: 1, value: '1'.repeat(51) }], /^Phone is too long \(limit 50 characters\)$/],
      ['long text over 500 code points', [{ id: 4, value: 'a'.repeat(501) }], /^Biography is too long \(limit 500 characters\)$/],
      ['an impossible date', [{ id: DATE_FIELD, value: '2023-02-29' }], /^Birthday must be a date as YYYY-MM-DD$/],
      ['a date in another format', [{ id: DATE_FIELD, value: '29/02/2024' }], /^Birthday must be a date/],
      ['an unknown choice', [{ id: CHOICE_FIELD, value: 'sales' }], /^Team has no choice "sales"$/],
    ])('refuses %s and changes nothing', async (_case, profileData, msg) => {
      const before = await profile(DANA);
      // A valid change listed first must not be stored either.
      const valid = { id: profileData.some((entry) => entry.id === 1) ? 4 : 1, value: 'changed first' };
      await expect(as('admin').updateUser({ user_id: DANA, profile_data: [valid, ...profileData] })).rejects.toEqual(refused(msg));
      expect(await profile(DANA)).toEqual(before);
    });

    it('refuses profile data for a bot', async () => {
      await expect(as('admin').updateUser({ user_id: 7, profile_data: [{ id: 1, value: 'x' }] })).rejects.toEqual(refused(/^Bots have no custom profile fields$/));
    });
  });

  describe('new_email', () => {
    it('changes both addresses; the user authenticates with the new one', async () => {
      await as('owner').updateUser({ user_id: DANA, new_email: 'Dana.Kim@example.com' });
      expect(await user(DANA)).toMatchObject({ email: 'Dana.Kim@example.com', delivery_email: 'Dana.Kim@example.com' });
      const me = await server.client('member', { email: 'dana.kim@example.com' }).getOwnUser();
      expect(me).toMatchObject({ user_id: DANA, email: 'Dana.Kim@example.com', delivery_email: 'Dana.Kim@example.com' });
    });

    it('refuses an owner without can_change_user_emails', async () => {
      await server.db.query('UPDATE users SET can_change_user_emails = false WHERE id = $1', [ADA]);
      await expect(as('owner').updateUser({ user_id: DANA, new_email: 'dana.kim@example.com' })).rejects.toEqual(
        refused(/^Changing email addresses needs an owner with the can_change_user_emails permission$/),
      );
      expect((await user(DANA)).email).toBe('member@example.com');
    });

    it.each([
      ['an invalid address', 'dana at example.com', /^Invalid email address$/],
      ['an address of another user', 'ADMIN@example.com', /^The email address is already in use$/],
      ['a domain that is not allowed', 'dana@example.org', /allowed domains$/],
      ['a subdomain while subdomains are not allowed', 'dana@eu.example.com', /allowed domains$/],
    ])('refuses %s', async (_case, email, msg) => {
      await expect(as('owner').updateUser({ user_id: DANA, new_email: email })).rejects.toEqual(refused(msg));
      expect((await user(DANA)).email).toBe('member@example.com');
    });

    it('accepts a subdomain once the domain allows them, and the user own address in another case', async () => {
      await server.db.query('UPDATE realm_domains SET allow_subdomains = true');
      await as('owner').updateUser({ user_id: DANA, new_email: 'dana@eu.example.com' });
      expect((await user(DANA)).email).toBe('dana@eu.example.com');
      await as('owner').updateUser({ user_id: DANA, new_email: 'DANA@eu.example.com' });
      expect((await user(DANA)).email).toBe('DANA@eu.example.com');
    });
  });
});
