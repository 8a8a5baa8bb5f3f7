/**
 * The generated validators as Standard Schema v1 objects, used by a real
 * consumer of the interface (tRPC's input parser), and the per-operation
 * response checks the file-wide dispatchers delegate to.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components, GetMessageParams } from '../../../../generated/types.js';
import {
  GetMessageRequestSchema,
  GetOwnUserResponseSchema,
  OwnUserSchema,
  validateGetMessageResponseHeaders,
  validateGetMessageResponses,
  validateResponse,
  validateResponseHeaders,
  type RawRequest,
} from '../../../../generated/validators.js';

type OwnUser = components['schemas']['OwnUser'];

const user: OwnUser = {
  user_id: 5,
  email: 'member@example.com',
  delivery_email: 'member@example.com',
  full_name: 'Dana Kim',
  avatar_url: 'https://example.com/a.png',
  avatar_version: 2,
  role: 400,
  is_admin: false,
  is_owner: false,
  is_guest: false,
  is_bot: false,
  is_active: true,
  is_imported_stub: false,
  timezone: 'America/Chicago',
  date_joined: '2025-03-03T09:15:00+00:00',
  max_message_id: 105,
  profile_data: { '1': { value: '+1 555 0142' } },
};

const request = (path: Record<string, string>, query: Record<string, string> = {}): RawRequest => ({ path, query, body: {} });

describe('Standard Schema', () => {
  it('a component schema validates to its value, or to issues with paths as keys', async () => {
    const standard = OwnUserSchema['~standard'];
    expect(standard.version).toBe(1);
    expect(standard.vendor).toBe('teamchat');
    expect(await standard.validate(user)).toEqual({ value: user });
    const bad = { ...user, role: 'admin', profile_data: { '1': { value: 5 } } };
    const result = await standard.validate(bad);
    expect(result.issues).toEqual([
      { path: ['role'], message: 'must be an integer' },
      { path: ['profile_data', '1', 'value'], message: 'must be a string' },
    ]);
  });

  it('an operation request decoder takes a raw request to its typed parameters', async () => {
    const standard = GetMessageRequestSchema['~standard'];
    expect(await standard.validate(request({ message_id: '42' }, { apply_markdown: 'false' }))).toEqual({ value: { message_id: 42, apply_markdown: false, allow_empty_topic_name: false } });
    const result = await standard.validate(request({ message_id: 'x' }));
    expect(result.issues?.[0]?.path).toEqual(['message_id']);
    expect(result.issues?.[0]?.message).toMatch(/message_id/);
  });

  it('plugs into tRPC as an input parser, typed by the schema', async () => {
    const t = initTRPC.create();
    const router = t.router({
      greet: t.procedure.input(OwnUserSchema).query(({ input }) => {
        expectTypeOf(input).toEqualTypeOf<OwnUser>();
        return `hello ${input.full_name}`;
      }),
      message: t.procedure.input(GetMessageRequestSchema).query(({ input }) => {
        expectTypeOf(input).toEqualTypeOf<GetMessageParams>();
        return input.message_id;
      }),
      me: t.procedure.input(GetOwnUserResponseSchema).query(({ input }) => input.user_id),
    });
    const caller = t.createCallerFactory(router)({});
    expect(await caller.greet(user)).toBe('hello Dana Kim');
    expect(await caller.message(request({ message_id: '7' }))).toBe(7);
    expect(await caller.me({ result: 'success', msg: '', ...user })).toBe(5);
    const refused = await caller.greet({ ...user, email: 3 } as unknown as OwnUser).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe('BAD_REQUEST');
    expect(String((refused as TRPCError).message)).toContain('must be a string');
  });
});

describe('per-operation response checks', () => {
  const message = { result: 'success', msg: '', raw_content: 'hi' };

  it('check any declared status and media type of one operation, as the file-wide dispatcher does', () => {
    for (const [status, body] of [
      [200, message],
      [200, { result: 'success' }],
      [400, { result: 'error', msg: 'x', code: 'BAD_REQUEST' }],
      [400, { result: 'error' }],
    ] as const) {
      expect(validateGetMessageResponses(status, 'application/json', body)).toEqual(validateResponse('getMessage', status, 'application/json', body));
    }
    expect(validateGetMessageResponses(200, 'application/json', { result: 'success' })).not.toEqual([]);
    expect(validateGetMessageResponses(299, 'application/json', message)).toBeUndefined();
    expect(validateGetMessageResponses(200, 'text/html', message)).toHaveLength(1);
  });

  it('check the declared headers of one operation, undefined for an undeclared status', () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    expect(validateGetMessageResponseHeaders(200, headers)).toEqual(validateResponseHeaders('getMessage', 200, headers));
    expect(validateGetMessageResponseHeaders(299, headers)).toBeUndefined();
  });
});
