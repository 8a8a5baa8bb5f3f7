import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureModel } from '../../../fixtures/validators/model.js';
import { loadGenerated, loadRuntime, type DecodedLike, type GeneratedValidators, type RawRequestLike, removeWritten } from '../../../fixtures/validators/load.js';

let generated: GeneratedValidators;
beforeAll(async () => {
  generated = await loadGenerated(fixtureModel());
});

function raw(parts: Partial<RawRequestLike>): RawRequestLike {
  return { path: {}, query: {}, body: {}, ...parts };
}

function decode(operation: string, request: Partial<RawRequestLike>): DecodedLike {
  const decoder = generated.decoders[operation];
  if (decoder === undefined) throw new Error(`no decoder ${operation}`);
  return decoder(raw(request));
}

const EMOJI = '\u{1F389}'; // one code point, two UTF-16 units

type Failure = { parameter: string; rule: string; msg: string };
type Success = { value: Record<string, unknown>; unsupported?: string[] };

const cases: [string, { operation: string; given: Partial<RawRequestLike>; want: Failure | Success }][] = [
  // required, enum, defaults
  ['missing required parameter', { operation: 'updatePresence', given: {}, want: { parameter: 'status', rule: 'required', msg: 'Missing required parameter "status"' } }],
  ['enum', { operation: 'updatePresence', given: { body: { status: 'away' } }, want: { parameter: 'status', rule: 'enum', msg: 'Invalid parameter "status": must be one of "active", "idle"' } }],
  ['defaults applied to absent parameters', { operation: 'updatePresence', given: { body: { status: 'idle' } }, want: { value: { status: 'idle', history_limit_days: 14, ping_only: false, slim_presence: false } } }],
  ['present parameters override defaults', { operation: 'updatePresence', given: { body: { status: 'active', ping_only: 'true', history_limit_days: '3' } }, want: { value: { status: 'active', history_limit_days: 3, ping_only: true, slim_presence: false } } }],
  // plain integers
  ['integer', { operation: 'updatePresence', given: { body: { status: 'active', last_update_id: '-1' } }, want: { value: { status: 'active', last_update_id: -1, history_limit_days: 14, ping_only: false, slim_presence: false } } }],
  ['integer with a fraction', { operation: 'updatePresence', given: { body: { status: 'active', last_update_id: '1.5' } }, want: { parameter: 'last_update_id', rule: 'type', msg: 'Invalid parameter "last_update_id": must be an integer' } }],
  ['integer in exponent form', { operation: 'updatePresence', given: { body: { status: 'active', last_update_id: '1e3' } }, want: { parameter: 'last_update_id', rule: 'type', msg: 'Invalid parameter "last_update_id": must be an integer' } }],
  ['empty integer', { operation: 'updatePresence', given: { body: { status: 'active', last_update_id: '' } }, want: { parameter: 'last_update_id', rule: 'type', msg: 'Invalid parameter "last_update_id": must be an integer' } }],
  ['integer with a plus sign', { operation: 'updatePresence', given: { body: { status: 'active', last_update_id: '+4' } }, want: { parameter: 'last_update_id', rule: 'type', msg: 'Invalid parameter "last_update_id": must be an integer' } }],
  ['integer out of the safe range', { operation: 'updatePresence', given: { body: { status: 'active', last_update_id: '9007199254740993' } }, want: { parameter: 'last_update_id', rule: 'type', msg: 'Invalid parameter "last_update_id": must be an integer between -9007199254740991 and 9007199254740991' } }],
  ['minimum', { operation: 'updateMessageFlagsForNarrow', given: { body: { anchor: 'newest', num_before: '-1', num_after: '0', op: 'add', flag: 'read' } }, want: { parameter: 'num_before', rule: 'minimum', msg: 'Invalid parameter "num_before": must be at least 0' } }],
  // plain booleans
  ['boolean must be exactly true or false', { operation: 'updateStatus', given: { body: { away: 'True' } }, want: { parameter: 'away', rule: 'type', msg: 'Invalid parameter "away": must be true or false' } }],
  ['boolean 1 is not true', { operation: 'getMessage', given: { path: { message_id: '101' }, query: { apply_markdown: '1' } }, want: { parameter: 'apply_markdown', rule: 'type', msg: 'Invalid parameter "apply_markdown": must be true or false' } }],
  // string lengths count code points
  ['maxLength', { operation: 'updateStatus', given: { body: { status_text: 'x'.repeat(61) } }, want: { parameter: 'status_text', rule: 'maxLength', msg: 'Invalid parameter "status_text": must be at most 60 characters' } }],
  ['maxLength counts code points, not UTF-16 units', { operation: 'updateStatus', given: { body: { status_text: EMOJI.repeat(60) } }, want: { value: { status_text: EMOJI.repeat(60) } } }],
  ['maxLength over by one astral character', { operation: 'updateStatus', given: { body: { status_text: EMOJI.repeat(61) } }, want: { parameter: 'status_text', rule: 'maxLength', msg: 'Invalid parameter "status_text": must be at most 60 characters' } }],
  ['empty string is a string', { operation: 'updateStatus', given: { body: { status_text: '' } }, want: { value: { status_text: '' } } }],
  ['named enum through a reference', { operation: 'updateStatus', given: { body: { reaction_type: 'image' } }, want: { parameter: 'reaction_type', rule: 'enum', msg: 'Invalid parameter "reaction_type": must be one of "unicode_emoji", "realm_emoji", "zulip_extra_emoji"' } }],
  ['named integer enum with a default', { operation: 'sendInvites', given: { body: { invitee_emails: 'a@example.com', stream_ids: '[]', invite_as: '700' } }, want: { parameter: 'invite_as', rule: 'enum', msg: 'Invalid parameter "invite_as": must be one of 100, 200, 300, 400, 600' } }],
  // json parameters
  ['invalid JSON', { operation: 'updateScheduledMessage', given: { path: { scheduled_message_id: '21' }, body: { to: 'abc' } }, want: { parameter: 'to', rule: 'json', msg: 'Invalid JSON in parameter "to"' } }],
  ['union: integer', { operation: 'updateScheduledMessage', given: { path: { scheduled_message_id: '21' }, body: { to: '2' } }, want: { value: { scheduled_message_id: 21, to: 2 } } }],
  ['union: list of integers', { operation: 'updateScheduledMessage', given: { path: { scheduled_message_id: '21' }, body: { to: '[5, 6]' } }, want: { value: { scheduled_message_id: 21, to: [5, 6] } } }],
  ['union: neither variant', { operation: 'updateScheduledMessage', given: { path: { scheduled_message_id: '21' }, body: { to: '"engineering"' } }, want: { parameter: 'to', rule: 'union', msg: 'Invalid parameter "to": must be an integer or a list of integers' } }],
  ['union: element of the list variant', { operation: 'updateScheduledMessage', given: { path: { scheduled_message_id: '21' }, body: { to: '[5, "x"]' } }, want: { parameter: 'to', rule: 'type', msg: 'Invalid parameter "to": [1] must be an integer' } }],
  ['nullable integer: null', { operation: 'sendInvites', given: { body: { invitee_emails: 'a@example.com', stream_ids: '[1]', invite_expires_in_minutes: 'null' } }, want: { value: { invitee_emails: 'a@example.com', stream_ids: [1], invite_expires_in_minutes: null, invite_as: 400 } } }],
  ['nullable string over its limit', { operation: 'sendInvites', given: { body: { invitee_emails: 'a@example.com', stream_ids: '[]', welcome_message_custom_text: JSON.stringify('w'.repeat(8001)) } }, want: { parameter: 'welcome_message_custom_text', rule: 'maxLength', msg: 'Invalid parameter "welcome_message_custom_text": must be at most 8000 characters' } }],
  ['list of objects or pairs', { operation: 'updateMessageFlagsForNarrow', given: { body: { anchor: '101', num_before: '0', num_after: '5', op: 'add', flag: 'read', narrow: '[{"operator":"is","operand":"unread"},["channel","engineering"]]' } }, want: { value: { anchor: '101', include_anchor: true, num_before: 0, num_after: 5, narrow: [{ operator: 'is', operand: 'unread' }, ['channel', 'engineering']], op: 'add', flag: 'read' } } }],
  // Variants of distinct JSON types: the value's type picks the variant, whose own message is reported.
  ['list element of no variant type', { operation: 'updateMessageFlagsForNarrow', given: { body: { anchor: '101', num_before: '0', num_after: '5', op: 'add', flag: 'read', narrow: '["is:unread"]' } }, want: { parameter: 'narrow', rule: 'union', msg: 'Invalid parameter "narrow": [0] must be an object or a list of strings' } }],
  ['list element failing its variant', { operation: 'updateMessageFlagsForNarrow', given: { body: { anchor: '101', num_before: '0', num_after: '5', op: 'add', flag: 'read', narrow: '[{"operator":"is"}]' } }, want: { parameter: 'narrow', rule: 'required', msg: 'Invalid parameter "narrow": [0].operand is required' } }],
  ['pair of the wrong length', { operation: 'updateMessageFlagsForNarrow', given: { body: { anchor: '101', num_before: '0', num_after: '5', op: 'add', flag: 'read', narrow: '[["is"]]' } }, want: { parameter: 'narrow', rule: 'minItems', msg: 'Invalid parameter "narrow": [0] must have at least 2 items' } }],
  ['default list is a fresh value', { operation: 'updateMessageFlagsForNarrow', given: { body: { anchor: 'newest', num_before: '1', num_after: '0', op: 'remove', flag: 'starred' } }, want: { value: { anchor: 'newest', include_anchor: true, num_before: 1, num_after: 0, narrow: [], op: 'remove', flag: 'starred' } } }],
  ['group setting: group ID', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { can_add_subscribers_group: '{"new":9}' } }, want: { value: { stream_id: 2, can_add_subscribers_group: { new: 9 } } } }],
  ['group setting: members and subgroups', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { can_add_subscribers_group: '{"new":{"direct_members":[3],"direct_subgroups":[]},"old":9}' } }, want: { value: { stream_id: 2, can_add_subscribers_group: { new: { direct_members: [3], direct_subgroups: [] }, old: 9 } } } }],
  ['group setting: missing required property', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { can_add_subscribers_group: '{"old":9}' } }, want: { parameter: 'can_add_subscribers_group', rule: 'required', msg: 'Invalid parameter "can_add_subscribers_group": new is required' } }],
  ['group setting: wrong value type', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { can_add_subscribers_group: '{"new":"backend"}' } }, want: { parameter: 'can_add_subscribers_group', rule: 'union', msg: 'Invalid parameter "can_add_subscribers_group": new must be an integer or an object' } }],
  ['group setting: unknown property', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { can_add_subscribers_group: '{"new":9,"extra":1}' } }, want: { parameter: 'can_add_subscribers_group', rule: 'additionalProperties', msg: 'Invalid parameter "can_add_subscribers_group": extra is not allowed' } }],
  ['group setting: nested object property', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { can_add_subscribers_group: '{"new":{"direct_members":[3]}}' } }, want: { parameter: 'can_add_subscribers_group', rule: 'required', msg: 'Invalid parameter "can_add_subscribers_group": new.direct_subgroups is required' } }],
  ['string or integer: keyword value', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { message_retention_days: '"unlimited"' } }, want: { value: { stream_id: 2, message_retention_days: 'unlimited' } } }],
  ['string or integer: below minimum', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { message_retention_days: '0' } }, want: { parameter: 'message_retention_days', rule: 'minimum', msg: 'Invalid parameter "message_retention_days": must be at least 1' } }],
  ['string or integer: renamed keyword', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { message_retention_days: '"forever"' } }, want: { parameter: 'message_retention_days', rule: 'enum', msg: 'Invalid parameter "message_retention_days": must be one of "realm_default", "unlimited"' } }],
  ['nullable folder', { operation: 'updateStream', given: { path: { stream_id: '2' }, body: { folder_id: 'null' } }, want: { value: { stream_id: 2, folder_id: null } } }],
  // repeated fields
  ['non-list parameter sent twice', { operation: 'updatePresence', given: { body: { status: ['active', 'idle'] } }, want: { parameter: 'status', rule: 'repeated', msg: 'Invalid parameter "status": must be given only once' } }],
  ['list sent as a repeated field', { operation: 'sendInvites', given: { body: { invitee_emails: 'a@example.com' }, query: { stream_ids: ['1', '2'] } }, want: { value: { invitee_emails: 'a@example.com', stream_ids: [1, 2], invite_as: 400 } } }],
  ['repeated field with a bad element', { operation: 'sendInvites', given: { body: { invitee_emails: 'a@example.com', stream_ids: ['1', 'two'] } }, want: { parameter: 'stream_ids', rule: 'type', msg: 'Invalid parameter "stream_ids": [1] must be an integer' } }],
  // where parameters are found
  ['path before body before query', { operation: 'updateScheduledMessage', given: { path: { scheduled_message_id: '21' }, body: { scheduled_message_id: '22', content: 'body' }, query: { content: 'query', topic: 'deploys' } }, want: { value: { scheduled_message_id: 21, content: 'body', topic: 'deploys' } } }],
  ['query string on a POST', { operation: 'updatePresence', given: { query: { status: 'idle', ping_only: 'true' } }, want: { value: { status: 'idle', history_limit_days: 14, ping_only: true, slim_presence: false } } }],
  ['unsupported parameters are sorted and deduplicated', { operation: 'updateStatus', given: { body: { away: 'false', zeta: '1', alpha: '2' }, query: { alpha: '3', constructor: 'x' } }, want: { value: { away: false }, unsupported: ['alpha', 'constructor', 'zeta'] } }],
  ['inherited names are not parameters', { operation: 'updatePresence', given: { body: {} }, want: { parameter: 'status', rule: 'required', msg: 'Missing required parameter "status"' } }],
  // files
  ['one file', { operation: 'uploadFile', given: { files: [{ field: 'file', filename: 'release-notes.pdf', contentType: 'application/pdf', data: new Uint8Array([37, 80]) }] }, want: { value: { file: { filename: 'release-notes.pdf', contentType: 'application/pdf', data: new Uint8Array([37, 80]) } } } }],
  ['no file', { operation: 'uploadFile', given: {}, want: { parameter: 'file', rule: 'file', msg: 'Invalid parameter "file": must be exactly one file, got 0' } }],
  ['two files', { operation: 'uploadFile', given: { files: [1, 2].map((n) => ({ field: 'file', filename: `${n}.txt`, contentType: 'text/plain', data: new Uint8Array() })) }, want: { parameter: 'file', rule: 'file', msg: 'Invalid parameter "file": must be exactly one file, got 2' } }],
  ['a file in another field is unsupported', { operation: 'uploadFile', given: { files: [{ field: 'file', filename: 'a.txt', contentType: 'text/plain', data: new Uint8Array() }, { field: 'other', filename: 'b.txt', contentType: 'text/plain', data: new Uint8Array() }] }, want: { value: { file: { filename: 'a.txt', contentType: 'text/plain', data: new Uint8Array() } }, unsupported: ['other'] } }],
];

afterAll(removeWritten);

describe('generated request decoders', () => {
  it.each(cases)('%s', (_name, { operation, given, want }) => {
    const result = decode(operation, given);
    if ('rule' in want) {
      expect(result).toEqual({ ok: false, error: { code: 'BAD_REQUEST', ...want } });
    } else {
      expect(result).toEqual({ ok: true, value: want.value, unsupported: want.unsupported ?? [] });
    }
  });

  it('stops at the first invalid parameter, in model order', () => {
    const result = decode('updateStatus', { body: { status_text: 'x'.repeat(61), away: 'maybe' } });
    expect(result.ok === false && result.error.parameter).toBe('status_text');
  });

  it('lists every field no parameter takes, wherever the request holds it (unsupportedFields counts, unsupportedParameters looks up)', () => {
    const known: Record<string, string> = { status_text: 'busy', emoji_name: 'car', away: 'true' };
    const names = fc.constantFrom(...Object.keys(known), 'zeta', 'alpha', 'constructor', 'emoji_code_2');
    const part = (list: string[]) => Object.fromEntries(list.map((name) => [name, Object.hasOwn(known, name) ? known[name]! : 'x']));
    fc.assert(
      fc.property(fc.uniqueArray(names), fc.uniqueArray(names), fc.boolean(), (inBody, inQuery, withFile) => {
        const files = withFile ? [{ field: 'attachment', filename: 'a.txt', contentType: 'text/plain', data: new Uint8Array() }] : [];
        const result = decode('updateStatus', { body: part(inBody), query: part(inQuery), files });
        const want = [...new Set([...inBody, ...inQuery, ...(withFile ? ['attachment'] : [])].filter((name) => !Object.hasOwn(known, name)))].sort();
        expect(result).toMatchObject({ ok: true, unsupported: want });
      }),
    );
  });

  it('counts a field of a path parameter sent in the body as known, as before', () => {
    expect(decode('updateStream', { path: { stream_id: '2' }, body: { stream_id: '3', description: 'd' } })).toMatchObject({ ok: true, unsupported: [] });
    expect(decode('updateStream', { path: { stream_id: '2' }, body: { stream_id: '3', extra: '1' } })).toMatchObject({ ok: true, unsupported: ['extra'] });
  });

  it('returns a fresh default value on every call', () => {
    const body = { anchor: 'newest', num_before: '1', num_after: '0', op: 'add', flag: 'read' };
    const first = decode('updateMessageFlagsForNarrow', { body });
    const second = decode('updateMessageFlagsForNarrow', { body });
    expect(first.ok && second.ok && first.value.narrow !== second.value.narrow).toBe(true);
  });

  it('exports one decoder per operation, keyed by camelCase name', () => {
    expect(Object.keys(generated.decoders).sort()).toEqual(
      fixtureModel().operations.map((o) => o.names.camel).sort(),
    );
    expect(generated.decoders.updateStatus).toBe(generated.decodeUpdateStatus);
  });
});

describe('JSON text of parameters', () => {
  it('reads tiny JSON by hand exactly as JSON.parse does', async () => {
    const runtime = await loadRuntime(fixtureModel());
    const parseJson = runtime.parseJson as (text: string) => unknown;
    const invalid = runtime.INVALID_JSON;
    const reference = (text: string): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        return invalid;
      }
    };
    const tricky = [
      '0', '-0', '007', '-', '--1', '1e3', '1.5', '123456789012345', '1234567890123456', '12345678901234567890',
      '[]', '[ ]', '[1,2]', '[1, 2]', '[1,  2]', '[ 1]', '[1,]', '[,1]', '[01]', '[-0]', '[1]x', '[1', '[1,-]', '[[1]]',
      '""', '"a"', '"a\\"b"', '"\\u0041"', '"tab\there"', '"\n"', '"', '"a', '"\u{1F389}"', 'null', 'nul', 'true ', ' 1',
    ];
    for (const text of tricky) expect(parseJson(text), text).toEqual(reference(text));
    fc.assert(
      fc.property(
        fc.oneof(fc.json(), fc.array(fc.integer()).map((a) => JSON.stringify(a)), fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }).map((s) => `"${s}"`)),
        (text) => {
          expect(parseJson(text)).toEqual(reference(text));
        },
      ),
      { numRuns: 2000, seed: 4361 },
    );
  });

  /** JSON.parse's value, or INVALID_JSON where it throws. */
  const referenceOf = (invalid: unknown) => (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return invalid;
    }
  };

  /** The same value as JSON.parse's, keys in the same order, -0 kept, no prototype set by a `__proto__` key. */
  const expectSameValue = (actual: unknown, expected: unknown, text: string): void => {
    expect(actual, text).toEqual(expected);
    expect(typeof actual === 'symbol' ? actual : JSON.stringify(actual), text).toEqual(typeof expected === 'symbol' ? expected : JSON.stringify(expected));
    const walk = (a: unknown, b: unknown): void => {
      if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
        expect(Object.is(a, b) || (typeof a === 'symbol' && a === b) || JSON.stringify(a) === JSON.stringify(b), text).toBe(true);
        return;
      }
      expect(Object.getPrototypeOf(a), text).toBe(Object.getPrototypeOf(b));
      expect(Object.keys(a), text).toEqual(Object.keys(b));
      for (const key of Object.keys(a)) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
    };
    walk(actual, expected);
  };

  /** JSON text written with arbitrary JSON whitespace between its tokens, and some texts one character off. */
  const spaced = (value: unknown, spaces: string[]): string => {
    let n = 0;
    const gap = (): string => spaces[n++ % spaces.length] ?? '';
    const write = (v: unknown): string => {
      if (Array.isArray(v)) return `[${gap()}${v.map((e) => write(e)).join(`${gap()},${gap()}`)}${gap()}]`;
      if (typeof v === 'object' && v !== null) {
        const members = Object.entries(v).map(([k, e]) => `${JSON.stringify(k)}${gap()}:${gap()}${write(e)}`);
        return `{${gap()}${members.join(`${gap()},${gap()}`)}${gap()}}`;
      }
      return JSON.stringify(v);
    };
    return `${gap()}${write(value)}${gap()}`;
  };
  const whitespace = fc.array(fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  '), { minLength: 1, maxLength: 8 });
  const mutated = (text: string, at: number, change: string, remove: boolean): string => {
    const i = text.length === 0 ? 0 : at % text.length;
    return remove ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + change + text.slice(i);
  };
  const oneOff = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('"', '\\', ',', ':', '{', '}', '[', ']', '0', '-', 'e', '.', ' ', '\u0001', 'x'), fc.boolean()).map(([t, at, change, remove]) => mutated(t, at, change, remove));

  it('reads any JSON with the general reader exactly as JSON.parse does, or leaves it to JSON.parse', async () => {
    const runtime = await loadRuntime(fixtureModel());
    const parseJson = runtime.parseJson as (text: string, reader?: unknown) => unknown;
    const reference = referenceOf(runtime.INVALID_JSON);
    const tricky = [
      '{}', '{ }', '[]', '[ [ ] , { } ]', '{"a":1,"a":2}', '{"b":1,"a":2,"1":3,"0":4}', '{"__proto__":{"x":1}}', '{"a":{"__proto__":[]}}',
      '{"constructor":1,"toString":"x","hasOwnProperty":null}', '{"a\\"b":1}', '{"\\u0061":1}', '{"a":"\u0001"}', '{"a" : 1 }', '{"a":1,}', '{,}', '{"a"}', '{"a":}',
      '[-0,0.5,-1.25e-3,1E+2,1e400,-1e-400,123456789012345678,0.1,1.0]', '[01]', '[1.]', '[.5]', '[1e]', '[-]', '[+1]', '[tru]', '[nulls]', '[true,false,null]',
      '["\u{1F389}","\ud800"]', '{"a":[{"b":[{"c":{}}]}]}', '{"a":"\\u0001"}', '\t{"a":1}\n', '{"a":1} x', '"\u2028"',
    ];
    for (const text of tricky) expectSameValue(parseJson(text, runtime.readJsonValue), reference(text), text);
    // Deeper than the stack: left to JSON.parse.
    const deep = `${'['.repeat(100000)}${']'.repeat(100000)}`;
    let depth = 0;
    for (let v = parseJson(deep, runtime.readJsonValue); Array.isArray(v); v = v[0]) depth++;
    expect(depth).toBe(100000);
    expect(parseJson(`${deep}]`, runtime.readJsonValue)).toBe(runtime.INVALID_JSON);
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.tuple(fc.jsonValue(), whitespace).map(([v, ws]) => spaced(v, ws)), oneOff), (text) => {
        expectSameValue(parseJson(text, runtime.readJsonValue), reference(text), text);
      }),
      { numRuns: 3000, seed: 8231 },
    );
  });

  it('reads integer lists by hand exactly as JSON.parse does, anything else in them by the general reader', async () => {
    const runtime = await loadRuntime(fixtureModel());
    const parseJson = runtime.parseJson as (text: string, reader?: unknown) => unknown;
    const reference = referenceOf(runtime.INVALID_JSON);
    // A space after the text keeps parseJson's tiny reader from taking it, so the list reader reads it.
    const tricky = [
      '[5,9]', '[0]', '[10,0]', '[-1]', '[1.5]', '[1e3]', '[1,]', '[,1]', '[1 ,2]', '[1, 2]', '[12345678901234567]', '[1,[2]]', '[1', '[1,2',
      '["a"]', '{"a":1}', '7', 'null', '[01]', '[1]]', '[1] ', '[1]\n',
    ].map((text) => `${text} `);
    const read = (text: string): unknown => parseJson(text, runtime.readJsonIntegers);
    for (const text of tricky) expectSameValue(read(text), reference(text), text);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.oneof(fc.nat(), fc.integer(), fc.maxSafeNat()), { maxLength: 6 }).map((list) => JSON.stringify(list)),
          fc.tuple(fc.array(fc.nat(), { maxLength: 4 }), whitespace).map(([list, ws]) => spaced(list, ws)),
          fc.tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), fc.nat(), fc.constantFrom(',', ']', '[', '-', '.', 'e', '0', ' ', 'x'), fc.boolean()).map(([list, at, change, remove]) =>
            mutated(JSON.stringify(list), at, change, remove),
          ),
        ),
        (text) => {
          expectSameValue(read(`${text} `), reference(`${text} `), text);
          expectSameValue(read(text), reference(text), text);
        },
      ),
      { numRuns: 3000, seed: 2209 },
    );
  });

  it('gives each read its own cursor: a read inside a reader leaves the outer one where it was', async () => {
    const runtime = await loadRuntime(fixtureModel());
    type Cursor = { s: string; at: number };
    const parseJson = runtime.parseJson as (text: string, reader?: (c: Cursor) => unknown) => unknown;
    const readJsonValue = runtime.readJsonValue as (c: Cursor) => unknown;
    const inner: unknown[] = [];
    // The inner text is as long as the outer one, so a shared cursor would end where the outer read expects to.
    const outer = (c: Cursor): unknown => {
      inner.push(parseJson('{"b":[3]}', readJsonValue));
      return { text: c.s, value: readJsonValue(c) };
    };
    expect(parseJson('{"a":[1]}', outer)).toEqual({ text: '{"a":[1]}', value: { a: [1] } });
    expect(inner).toEqual([{ b: [3] }]);
  });

  it('reads a JSON field by its schema exactly as JSON.parse does (narrow: objects with listed keys, pairs, other values)', () => {
    const key = fc.constantFrom('operator', 'operand', 'negated', 'operato', 'operands', 'Operator', '__proto__', 'other', '');
    const term = fc.oneof(
      fc.dictionary(key, fc.oneof(fc.constantFrom('is', 'unread', 'channel'), fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }),
      fc.tuple(fc.constantFrom('channel', 'is'), fc.constantFrom('engineering', 'unread')),
      fc.jsonValue({ maxDepth: 1 }),
    );
    const narrow = fc.oneof(
      fc.tuple(fc.array(term, { maxLength: 4 }), whitespace).map(([terms, ws]) => spaced(terms, ws)),
      fc.tuple(fc.jsonValue({ maxDepth: 2 }), whitespace).map(([v, ws]) => spaced(v, ws)),
      fc.tuple(fc.array(term, { maxLength: 3 }), fc.nat(), fc.constantFrom('"', '\\', ',', ':', '}', ']', '\u0000', ' '), fc.boolean()).map(([terms, at, change, remove]) =>
        mutated(JSON.stringify(terms), at, change, remove),
      ),
    );
    const body = { anchor: '101', num_before: '0', num_after: '5', op: 'add', flag: 'read' };
    fc.assert(
      fc.property(narrow, (text) => {
        const result = decode('updateMessageFlagsForNarrow', { body: { ...body, narrow: text } });
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expect(result.ok === false && result.error.rule, text).toBe('json');
          return;
        }
        if (result.ok) expectSameValue(result.value.narrow, expected, text);
        else expect(result.error.rule, text).not.toBe('json');
      }),
      { numRuns: 3000, seed: 5507 },
    );
  });
});
