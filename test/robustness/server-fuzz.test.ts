/**
 * Fuzzing the reference server with malformed requests to each of its
 * operations, derived from the spec's model (method, path, parameters with
 * location, encoding and schema). Every answer must be a JSON envelope and
 * never a 5xx; refusals the bindings must make are checked by status and
 * code; and no refused request may change the database.
 *
 * Reproduce with FUZZ_SEED=<seed> (printed by fast-check on failure); each
 * operation runs with the seed plus its index. FUZZ_SCALE=<n> multiplies the
 * number of requests for a longer hunt.
 */
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load/index.js';
import { buildModel } from '../../generator/model/build.js';
import { drivers, startTestServer, type Driver, type TestServer } from '../support/server.js';
import { operationCases, type Case, type Login } from './support/cases.js';
import { changedTables, digest, digestQuery, tableNames, type Digest } from './support/digest.js';
import { asCurl, envelopeOf, send, type Answer, type Envelope, type FuzzRequest } from './support/wire.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_611);
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const root = fileURLToPath(new URL('../../', import.meta.url));
const model = buildModel(await loadSpec('spec/openapi.yaml', root));

/** Per operation: requests the bindings must refuse (checked in one batch), and open ones (checked one by one). */
const RUNS: Record<Driver, { refused: number; open: number }> = {
  pglite: { refused: 110, open: 40 },
  postgres: { refused: 12, open: 6 },
};

const BODY_LIMIT = 25 * 1024 * 1024;

describe.each(drivers)('malformed requests to every operation, on %s', (driver) => {
  let server: TestServer;
  let logins: Login[];
  let query: string;
  const sent = { refused: 0, open: 0, succeeded: 0 };

  beforeAll(async () => {
    server = await startTestServer(driver);
    logins = (['owner', 'member', 'guest', 'admin'] as const).map((who) => server.logins[who]);
    query = digestQuery(await tableNames(server.db));
  });
  afterAll(async () => {
    console.log(`${driver}: ${sent.refused} certain refusals, ${sent.open} open requests (${sent.succeeded} succeeded)`);
    await server?.close();
  });

  it('covers every operation of the spec', () => {
    expect(model.operations).toHaveLength(22);
  });

  it('has a digest that sees what an accepted request changes', async () => {
    const before = await digest(server.db, query);
    const owner = server.logins.owner;
    const answer = await send(server.url, {
      method: 'POST',
      path: '/users/me/status',
      query: [],
      authorization: `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}`,
      body: { kind: 'form', fields: [{ name: 'status_text', value: `digest%20check%20on%20${driver}` }] },
    });
    expect(envelopeOf(answer)).toEqual({ result: 'success', msg: '' });
    expect(changedTables(before, await digest(server.db, query))).toEqual(['user_status']);
  });

  it.each(model.operations.map((o, i) => [o.id, i] as const))('%s', async (id, index) => {
    const operation = model.operations[index]!;
    const cases = operationCases(model, operation, logins).map(printable);
    const seed = SEED + index;
    let baseline = await digest(server.db, query);

    await fc.assert(
      fc.asyncProperty(
        cases.filter((c) => c.expect !== 'any'),
        async (c) => {
          const answer = await send(server.url, c.request);
          sent.refused++;
          const envelope = expectEnvelope(c, answer, seed);
          const got = { status: answer.status, code: envelope.result === 'error' ? envelope.code : 'success' };
          expect(got, describeCase(c, answer, seed)).toEqual(c.expect);
        },
      ),
      { seed, numRuns: RUNS[driver].refused * SCALE, endOnFailure: true },
    );
    expectUnchanged(baseline, await digest(server.db, query), `${id}: a batch of refused requests (seed ${seed})`);

    await fc.assert(
      fc.asyncProperty(
        cases.filter((c) => c.expect === 'any'),
        async (c) => {
          const answer = await send(server.url, c.request);
          sent.open++;
          const envelope = expectEnvelope(c, answer, seed);
          const after = await digest(server.db, query);
          if (envelope.result === 'error') expectUnchanged(baseline, after, describeCase(c, answer, seed));
          else sent.succeeded++;
          baseline = after;
        },
      ),
      { seed, numRuns: RUNS[driver].open * SCALE, endOnFailure: true },
    );
  });

  // Three bodies of just over 25 MiB: the whole of this file's bulk traffic per database.
  it('answers REQUEST_TOO_LARGE for a form body, a multipart field and an uploaded file, changing nothing', async () => {
    const owner = server.logins.owner;
    const authorization = `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}`;
    const big = 'a'.repeat(BODY_LIMIT + 1024);
    const requests: [string, FuzzRequest][] = [
      ['form body', { method: 'POST', path: '/users/me/status', query: [], authorization, body: { kind: 'form', fields: [{ name: 'status_text', value: big }] } }],
      ['multipart field', { method: 'POST', path: '/users/me/status', query: [], authorization, body: { kind: 'multipart', fields: [{ name: 'status_text', value: big }], files: [] } }],
      ['uploaded file', { method: 'POST', path: '/user_uploads', query: [], authorization, body: { kind: 'multipart', fields: [], files: [{ field: 'file', filename: 'big.bin', data: Buffer.from(big) }] } }],
    ];
    const before = await digest(server.db, query);
    for (const [label, request] of requests) {
      const answer = await send(server.url, request);
      expect({ label, status: answer.status, envelope: envelopeOf(answer) }).toMatchObject({
        label,
        status: 413,
        envelope: { result: 'error', code: 'REQUEST_TOO_LARGE' },
      });
    }
    expectUnchanged(before, await digest(server.db, query), 'bodies over the limit');
  });

  function expectEnvelope(c: Case, answer: Answer, seed: number): Envelope {
    const envelope = envelopeOf(answer);
    if (typeof envelope === 'string') expect.fail(`not an envelope: ${envelope}\n${describeCase(c, answer, seed)}`);
    return envelope;
  }

  function describeCase(c: Case, answer: Answer, seed: number): string {
    return [
      `${c.operation} (seed ${seed}): ${c.notes.join('; ')}`,
      `expected ${c.expect === 'any' ? 'any envelope' : `${c.expect.status} ${c.expect.code}`}, got ${answer.status} ${answer.text.slice(0, 300)}`,
      asCurl(server.url, c.request),
    ].join('\n');
  }
});

function expectUnchanged(before: Digest, after: Digest, context: string): void {
  expect(changedTables(before, after), `tables changed by a refused request: ${context}`).toEqual([]);
}

/** Cases print as their notes and request line, not as 100 KB of fields. */
function printable(c: Case): Case {
  return Object.assign(c, { [fc.toStringMethod]: () => `${c.operation}: ${c.notes.join('; ')} (${c.request.method} ${c.request.path.slice(0, 120)})` });
}
