import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isApiError, type Client } from '../../../../generated/client.js';
import { listenMock } from '../../../../server/mock.js';
import { seedRequests } from '../../../fixtures/client/seed-requests.js';

/* The committed generated client against the mock server (real bindings and decoders) over real HTTP. */

let close: () => Promise<unknown>;
let baseUrl: string;

beforeAll(async () => {
  const { app, url } = await listenMock({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
  baseUrl = url;
});

afterAll(async () => {
  await close();
});

const connect = (options: Partial<Parameters<typeof createClient>[0]> = {}) =>
  createClient({ baseUrl, email: 'member@example.com', apiKey: 'gR7kTq2VbX9mLpA4sN6dYw3Zc8Hj5Ef1', validateResponses: 'strict', ...options });

describe('generated client against the mock server', () => {
  it.each(seedRequests.map((r) => [r.operation, r] as const))('%s is decoded and answered', async (name, request) => {
    const call = connect()[name as keyof Client] as (params: unknown) => Promise<{ result: string; msg: string }>;
    const body = await call(request.params);
    expect(body.result).toBe('success');
    expect(body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('gets a BAD_REQUEST ApiError naming the rule for a parameter over its limit', async () => {
    const error = await connect()
      .updateStatus({ status_text: 'x'.repeat(61) })
      .catch((e: unknown) => e);
    expect(isApiError(error, 'BAD_REQUEST')).toBe(true);
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((error as Error).message).toContain('status_text');
  });
});
