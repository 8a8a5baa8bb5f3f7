import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKIFIER } from '../../server/seed/demo-data.js';
import { drivers, startTestServer, type TestServer, type Who } from '../support/server.js';

describe.each(drivers)('get-linkifiers on %s', (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(driver);
  });
  afterAll(async () => {
    await server?.close();
  });

  const seeded = {
    id: LINKIFIER.id,
    pattern: LINKIFIER.pattern,
    url_template: LINKIFIER.urlTemplate,
    example_input: LINKIFIER.exampleInput,
    reverse_template: LINKIFIER.reverseTemplate,
    alternative_url_templates: [],
  };

  it.each<Who>(['owner', 'admin', 'moderator', 'member', 'guest', 'bot'])('gives %s every field of the seeded linkifier', async (who) => {
    await expect(server.client(who).getLinkifiers()).resolves.toEqual({ result: 'success', msg: '', linkifiers: [seeded] });
  });

  it('lists in the stored order, not by id, with nulls and alternative templates', async () => {
    await server.db.query(
      `INSERT INTO linkifiers (id, pattern, url_template, example_input, reverse_template, alternative_url_templates, sort_order)
       VALUES (20, 'T(?P<id>[0-9]+)', 'https://tickets.example.com/{id}', NULL, NULL,
               ARRAY['https://tickets.example.com/view?id={id}', 'https://t.example.com/{id}'], 0),
              (21, 'PR(?P<n>[0-9]+)', 'https://github.com/lakeside/app/pull/{n}', 'PR7', 'PR{n}', '{}', 5)`,
    );
    try {
      const { linkifiers } = await server.client('member').getLinkifiers();
      expect(linkifiers).toEqual([
        {
          id: 20,
          pattern: 'T(?P<id>[0-9]+)',
          url_template: 'https://tickets.example.com/{id}',
          example_input: null,
          reverse_template: null,
          alternative_url_templates: ['https://tickets.example.com/view?id={id}', 'https://t.example.com/{id}'],
        },
        seeded,
        { id: 21, pattern: 'PR(?P<n>[0-9]+)', url_template: 'https://github.com/lakeside/app/pull/{n}', example_input: 'PR7', reverse_template: 'PR{n}', alternative_url_templates: [] },
      ]);
    } finally {
      await server.db.query('DELETE FROM linkifiers WHERE id IN (20, 21)');
    }
  });

  it('gives an empty list when there are none', async () => {
    await server.db.transaction(async (tx) => {
      await tx.query('DELETE FROM linkifiers');
    });
    try {
      await expect(server.client('member').getLinkifiers()).resolves.toEqual({ result: 'success', msg: '', linkifiers: [] });
    } finally {
      await server.db.query(
        'INSERT INTO linkifiers (id, pattern, url_template, example_input, reverse_template, sort_order) VALUES ($1, $2, $3, $4, $5, 1)',
        [LINKIFIER.id, LINKIFIER.pattern, LINKIFIER.urlTemplate, LINKIFIER.exampleInput, LINKIFIER.reverseTemplate],
      );
    }
  });

  it('reports parameters it does not take', async () => {
    const { email, apiKey } = server.logins.member;
    const response = await fetch(`${server.url}/api/v1/realm/linkifiers?extra=1`, {
      headers: { authorization: `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}` },
    });
    expect(await response.json()).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['extra'] });
  });
});
