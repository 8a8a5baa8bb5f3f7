/**
 * The reference server, on each database, seeded with the demo organization,
 * conforms to its own document: every operation, writes allowed (the
 * database is thrown away), logged in as the owner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceDocument } from '../../generator/conformance/document.js';
import { drivers, startTestServer, type TestServer } from '../support/server.js';
import { ownDocument, run } from './support.js';

let doc: ConformanceDocument;

beforeAll(async () => {
  doc = await ownDocument();
});

describe.each(drivers)('the reference server on %s', (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(driver);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('conforms over 3 seeds, links followed', async () => {
    const owner = server.logins.owner;
    let linksFollowed = 0;
    for (const seed of [1, 2, 3]) {
      const result = await run(doc, server.url, { auth: `${owner.email}:${owner.apiKey}`, seed, maxRequests: 200 });
      expect(result.failures, `seed ${seed}`).toEqual([]);
      expect(result.summary.operations).toBe(doc.model.operations.length);
      expect(result.summary.requests).toBeGreaterThan(150);
      linksFollowed += result.summary.linksFollowed;
    }
    // The demo organization's messages answer get-message, whose links lead on.
    expect(linksFollowed).toBeGreaterThan(0);
  }, 300_000);
});
