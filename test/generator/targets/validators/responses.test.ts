import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel } from '../../../fixtures/validators/model.js';
import { loadGenerated, type GeneratedValidators, type IssueLike, removeWritten } from '../../../fixtures/validators/load.js';

let generated: GeneratedValidators;
beforeAll(async () => {
  generated = await loadGenerated(fixtureModel());
});

function validate(operation: string, body: unknown, options?: { strict?: boolean; allErrors?: boolean }): IssueLike[] {
  const validator = generated.responseValidators[operation];
  if (validator === undefined) throw new Error(`no response validator ${operation}`);
  return validator(body, options);
}

/** Message 101 of the example organization, as the server returns it. */
function message101() {
  return {
    id: 101,
    type: 'stream',
    sender_id: 5,
    sender_email: 'member@example.com',
    sender_full_name: 'Dana Kim',
    sender_realm_str: 'lakeside',
    avatar_url: null as string | null,
    client: 'website',
    content: '<p>Deploy of <strong>v2.3</strong> is done. See #42.</p>',
    content_type: 'text/html',
    display_recipient: 'engineering',
    recipient_id: 12,
    stream_id: 2,
    subject: 'deploys',
    topic_links: [] as unknown[],
    is_me_message: false,
    reactions: [
      { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 3 } as Record<string, unknown>,
      { emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji', user_id: 4 } as Record<string, unknown>,
    ],
    submessages: [] as unknown[],
    timestamp: 1_760_000_000,
    last_edit_timestamp: 1_760_000_100,
    edit_history: [{ user_id: 5, timestamp: 1_760_000_100, prev_content: 'Deploy of v2.3 is done.' }] as Record<string, unknown>[],
    flags: ['read'],
  };
}

function getMessageBody() {
  return { result: 'success', msg: '', message: message101(), raw_content: 'Deploy of **v2.3** is done. See #42.' };
}

afterAll(removeWritten);

describe('generated response validators', () => {
  it('accepts a valid body', () => {
    expect(validate('getMessage', getMessageBody())).toEqual([]);
    expect(validate('getMessage', getMessageBody(), { strict: true, allErrors: true })).toEqual([]);
  });

  const cases: [string, { change: (body: ReturnType<typeof getMessageBody>) => unknown; want: IssueLike[] }][] = [
    ['body not an object', { change: () => [], want: [{ path: '$', message: 'must be an object' }] }],
    ['required field absent', { change: (b) => ({ ...b, message: undefined }), want: [{ path: '$.message', message: 'is required' }] }],
    ['envelope constant', { change: (b) => ({ ...b, result: 'error' }), want: [{ path: '$.result', message: 'must be "success"' }] }],
    ['nested path through a named schema', {
      change: (b) => { b.message.reactions[1]!.user_id = '4'; return b; },
      want: [{ path: '$.message.reactions[1].user_id', message: 'must be an integer' }],
    }],
    ['named enum inside an array element', {
      change: (b) => { b.message.reactions[0]!.reaction_type = 'image'; return b; },
      want: [{ path: '$.message.reactions[0].reaction_type', message: 'must be one of "unicode_emoji", "realm_emoji", "zulip_extra_emoji"' }],
    }],
    ['nullable field: null is fine, absent is not', {
      change: (b) => { const { avatar_url: _dropped, ...rest } = b.message; return { ...b, message: rest }; },
      want: [{ path: '$.message.avatar_url', message: 'is required' }],
    }],
    ['nullable field with the wrong type', {
      change: (b) => { (b.message as Record<string, unknown>).avatar_url = 5; return b; },
      want: [{ path: '$.message.avatar_url', message: 'must be a string or null' }],
    }],
    ['optional field absent', { change: (b) => { const { last_edit_timestamp: _dropped, ...rest } = b.message; return { ...b, message: rest }; }, want: [] }],
    ['optional field with the wrong type', {
      change: (b) => { (b.message as Record<string, unknown>).last_moved_timestamp = 1.5; return b; },
      want: [{ path: '$.message.last_moved_timestamp', message: 'must be an integer' }],
    }],
    ['string or list of recipients', {
      change: (b) => { (b.message as Record<string, unknown>).display_recipient = [{ id: 5, email: 'member@example.com', full_name: 'Dana Kim', is_mirror_dummy: 'no' }]; return b; },
      want: [{ path: '$.message.display_recipient[0].is_mirror_dummy', message: 'must be a boolean' }],
    }],
    ['edit history entry: null user before 2017', { change: (b) => { b.message.edit_history[0]!.user_id = null; return b; }, want: [] }],
    ['unknown fields are allowed by default', { change: (b) => ({ ...b, newer_field: 1, message: { ...b.message, is_starred: true } }), want: [] }],
  ];

  it.each(cases)('%s', (_name, { change, want }) => {
    expect(validate('getMessage', change(getMessageBody()))).toEqual(want);
  });

  it('strict mode reports properties the schema does not list, at their paths', () => {
    const body = getMessageBody();
    (body as Record<string, unknown>).extra = 1;
    body.message.reactions[0]!['odd key'] = true;
    expect(validate('getMessage', body)).toEqual([]);
    expect(validate('getMessage', body, { strict: true })).toEqual([{ path: '$.message.reactions[0]["odd key"]', message: 'is not a known property' }]);
    expect(validate('getMessage', body, { strict: true, allErrors: true })).toEqual([
      { path: '$.message.reactions[0]["odd key"]', message: 'is not a known property' },
      { path: '$.extra', message: 'is not a known property' },
    ]);
    // Every unknown key of one object, in key order, known ones between them skipped.
    (body as Record<string, unknown>).more = 2;
    expect(validate('getMessage', body, { strict: true, allErrors: true }).slice(1)).toEqual([
      { path: '$.extra', message: 'is not a known property' },
      { path: '$.more', message: 'is not a known property' },
    ]);
  });

  it('stops at the first issue unless allErrors', () => {
    const body = getMessageBody();
    (body as Record<string, unknown>).raw_content = 7;
    body.message.id = -1.5;
    body.message.flags = [1 as unknown as string, 'read', 2 as unknown as string];
    expect(validate('getMessage', body)).toHaveLength(1);
    expect(validate('getMessage', body, { allErrors: true })).toEqual([
      { path: '$.message.id', message: 'must be an integer' },
      { path: '$.message.flags[0]', message: 'must be a string' },
      { path: '$.message.flags[2]', message: 'must be a string' },
      { path: '$.raw_content', message: 'must be a string' },
    ]);
  });

  it('checks maps: key pattern and value schema', () => {
    const ok = { result: 'success', msg: '', presence_last_update_id: 7, server_timestamp: 1760000000.25, presences: { '5': { active_timestamp: 1, idle_timestamp: 2 } } };
    expect(validate('updatePresence', ok)).toEqual([]);
    const legacy = {
      ...ok,
      presences: { 'member@example.com': { aggregated: { client: 'website', status: 'active', timestamp: 1 }, website: { client: 'website', status: 'active', timestamp: 1, pushable: false } } },
    };
    expect(validate('updatePresence', legacy)).toEqual([]);
    const neither = { ...ok, presences: { '5': { active_timestamp: 'soon', idle_timestamp: 2 } } };
    expect(validate('updatePresence', neither)).toEqual([{ path: '$.presences', message: 'must be an object' }]);
  });

  it('checks tuples with a fixed length', () => {
    const body = { result: 'error', msg: 'Some invites failed', code: 'INVITATION_FAILED', errors: [['guest@example.com', 'Already has an account.', false]], daily_limit_reached: false, license_limit_reached: false, sent_invitations: true };
    expect(generated.validateErrorBody(body)).toEqual([]);
    body.errors[0]!.push('extra');
    expect(generated.validateErrorBody(body, { allErrors: true })).toEqual([{ path: '$.errors[0]', message: 'must have at most 3 items' }]);
    body.errors[0] = ['guest@example.com', 'Already has an account.', 'no'];
    expect(generated.validateErrorBody(body)).toEqual([{ path: '$.errors[0][2]', message: 'must be a boolean' }]);
  });

  it('checks error bodies by their code', () => {
    expect(generated.validateErrorBody({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' })).toEqual([]);
    expect(generated.validateErrorBody({ result: 'error', msg: 'Channel does not exist', code: 'STREAM_DOES_NOT_EXIST' })).toEqual([
      { path: '$.stream_id', message: 'is required' },
    ]);
    expect(generated.validateErrorBody({ result: 'error', msg: 'x', code: 'TEAPOT' })).toEqual([
      { path: '$.code', message: 'must be one of "BAD_REQUEST", "INVITATION_FAILED", "STREAM_DOES_NOT_EXIST"' },
    ]);
    expect(generated.validateErrorBody('oops')).toEqual([{ path: '$', message: 'must be an object' }]);
  });

  it('exports one validator per operation, keyed by camelCase name', () => {
    expect(Object.keys(generated.responseValidators).sort()).toEqual(fixtureModel().operations.map((o) => o.names.camel).sort());
    expect(generated.responseValidators.getMessage).toBe(generated.validateGetMessageResponse);
    expect(validate('updateStatus', { result: 'success', msg: '', ignored_parameters_unsupported: ['zeta'] })).toEqual([]);
  });
});
