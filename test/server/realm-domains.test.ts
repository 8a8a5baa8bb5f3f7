import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listRealmDomains } from '../../server/store/realm.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

const refused = (msg: string | RegExp) => expect.objectContaining({ code: 'BAD_REQUEST', status: 400, msg: expect.stringMatching(msg) });

describe.each(drivers)('update-realm-domain on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(async () => {
    await server.db.query('UPDATE realm_domains SET allow_subdomains = false');
  });

  const allowsSubdomains = async (domain: string) => (await listRealmDomains(server.db)).find((row) => row.domain === domain)?.allow_subdomains;

  it.each<[Who, boolean]>([
    ['owner', true],
    ['admin', false],
    ['moderator', false],
    ['member', false],
    ['guest', false],
    ['bot', false],
  ])('as %s: allowed %s', async (who, allowed) => {
    const request = server.client(who).updateRealmDomain({ domain: 'example.com', allow_subdomains: true });
    if (allowed) await expect(request).resolves.toEqual({ result: 'success', msg: '' });
    else await expect(request).rejects.toEqual(refused(/^Must be an organization owner/));
    expect(await allowsSubdomains('example.com')).toBe(allowed);
  });

  it('turns subdomains on and off again', async () => {
    const owner = server.client('owner');
    await owner.updateRealmDomain({ domain: 'example.com', allow_subdomains: true });
    expect(await allowsSubdomains('example.com')).toBe(true);
    await owner.updateRealmDomain({ domain: 'example.com', allow_subdomains: false });
    expect(await allowsSubdomains('example.com')).toBe(false);
  });

  it('matches the domain case-insensitively', async () => {
    await server.client('owner').updateRealmDomain({ domain: 'Example.COM', allow_subdomains: true });
    expect(await allowsSubdomains('example.com')).toBe(true);
  });

  it('refuses a domain that is not allowed', async () => {
    await expect(server.client('owner').updateRealmDomain({ domain: 'example.org', allow_subdomains: true })).rejects.toEqual(
      refused(/^No allowed domain example.org$/),
    );
    expect((await listRealmDomains(server.db)).map((row) => row.domain)).toEqual(['example.com']);
  });

  it('requires allow_subdomains', async () => {
    const request = server.client('owner').updateRealmDomain({ domain: 'example.com' } as never);
    await expect(request).rejects.toEqual(refused(/allow_subdomains/));
  });
});
