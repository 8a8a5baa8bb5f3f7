/**
 * fast-check arbitraries of malformed requests for one operation of the
 * model: a valid request built from one of the spec's request examples, then
 * one or two mutations (wrong values, missing, duplicated and unknown
 * parameters, broken credentials, content types, methods, path values), each
 * knowing whether the server must refuse the result and with what.
 */
import fc from 'fast-check';
import type { ApiModel, HttpMethod, Operation, Parameter } from '../../../generator/model/types.js';
import { badValues, BROKEN_ESCAPES, HUGE_BODY_VALUE, HUGE_URL_VALUE, resolve } from './values.js';
import type { Body, Field, FilePart, FuzzRequest } from './wire.js';

export interface Login {
  email: string;
  apiKey: string;
}

/** What the server must answer: a certain refusal, or any well-formed envelope. */
export type Expectation = { status: number; code: string } | 'any';

export interface Case {
  operation: string;
  request: FuzzRequest;
  expect: Expectation;
  /** What was done to the valid request, for failure messages. */
  notes: string[];
}

type Placement = 'query' | 'form' | 'multipart';

/** A request being built: fields stay editable until `finish`. */
interface Draft {
  method: string;
  path: Map<string, string>;
  fields: Field[];
  placement: Placement;
  files: FilePart[];
  authorization: string | undefined;
  raw?: { contentType: string | undefined; data: string };
}

/**
 * What a mutation makes the server answer, as far as it is certain. The
 * server routes first (404/405; the body is parsed even then), then checks
 * credentials (401), then parses a form body (400), then decodes (400).
 * `unroutable`: the path may not reach the operation at all.
 */
type Outcome = 'any' | 'unroutable' | 'bad' | 'form' | 'unauthorized' | 'method';
const BAD_REQUEST = { status: 400, code: 'BAD_REQUEST' };
const UNAUTHORIZED = { status: 401, code: 'UNAUTHORIZED' };
const METHOD_NOT_ALLOWED = { status: 405, code: 'METHOD_NOT_ALLOWED' };

interface Mutation {
  /** Mutations of one request touch distinct targets, so one cannot undo another. */
  target: string;
  note: string;
  /** Run once the placement is known (it decides which values are certain refusals). */
  apply(draft: Draft): Outcome;
}

const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];
const enc = (text: string): string => encodeURIComponent(text);
const basic = (text: string | Buffer): string => `Basic ${Buffer.from(text).toString('base64')}`;

export function operationCases(model: ApiModel, operation: Operation, logins: Login[]): fc.Arbitrary<Case> {
  const examples = operation.requestExamples.length > 0 ? operation.requestExamples.map((e) => e.value as Record<string, unknown>) : [{}];
  const placements: Placement[] =
    operation.body === 'multipart' ? ['multipart'] : operation.body === 'form' ? ['form', 'form', 'multipart', 'query'] : ['query'];
  const mutations = mutationArbitrary(model, operation, logins);
  return fc
    .record({
      example: fc.constantFrom(...examples),
      placement: fc.constantFrom(...placements),
      login: fc.constantFrom(...logins),
      mutations: fc.uniqueArray(mutations, { minLength: 1, maxLength: 2, selector: (m) => m.target }),
    })
    .map(({ example, placement, login, mutations: chosen }) => {
      const draft = validDraft(model, operation, example, placement, login);
      const outcomes = [...chosen].sort((a, b) => order(a) - order(b)).map((m) => m.apply(draft));
      return { operation: operation.id, request: finish(operation, draft), expect: expectation(outcomes), notes: chosen.map((m) => m.note) };
    });
}

/** The method first (it decides where fields travel), the content type last (it may carry the fields). */
function order(mutation: Mutation): number {
  return mutation.target === 'method' ? 0 : mutation.target === 'content type' ? 2 : 1;
}

function expectation(outcomes: Outcome[]): Expectation {
  const has = (outcome: Outcome): boolean => outcomes.includes(outcome);
  if (has('unroutable')) return 'any';
  if (has('method')) return has('form') ? BAD_REQUEST : METHOD_NOT_ALLOWED;
  if (has('unauthorized')) return UNAUTHORIZED;
  if (has('form') || has('bad')) return BAD_REQUEST;
  return 'any';
}

/** Whether the strict form parser refuses this text (a broken or non-UTF-8 escape). */
function breaksForm(text: string): boolean {
  try {
    decodeURIComponent(text);
    return false;
  } catch {
    return true;
  }
}

const inFormBody = (draft: Draft): boolean => draft.placement === 'form' && draft.method !== 'GET';

/** The value as the client would send it: JSON text, or plain text. */
function wireValue(parameter: Parameter, value: unknown): string {
  if (parameter.encoding === 'json') return JSON.stringify(value);
  return typeof value === 'string' ? value : String(value);
}

/** A value of the right type for a required parameter no example gives. */
function filler(model: ApiModel, parameter: Parameter): unknown {
  const schema = resolve(model, parameter.schema);
  if (schema.kind === 'integer') return schema.enum?.[0] ?? 1;
  if (schema.kind === 'boolean') return true;
  if (schema.kind === 'string') return schema.enum?.[0] ?? 'x';
  if (schema.kind === 'array') return [];
  return null;
}

function validDraft(model: ApiModel, operation: Operation, example: Record<string, unknown>, placement: Placement, login: Login): Draft {
  const draft: Draft = {
    method: operation.method.toUpperCase(),
    path: new Map(),
    fields: [],
    placement,
    files: [],
    authorization: operation.auth ? basic(`${login.email}:${login.apiKey}`) : undefined,
  };
  for (const parameter of operation.parameters) {
    const value = parameter.name in example ? example[parameter.name] : parameter.required ? filler(model, parameter) : undefined;
    if (value === undefined) continue;
    if (parameter.location === 'path') draft.path.set(parameter.name, enc(wireValue(parameter, value)));
    else if (parameter.encoding === 'file') draft.files.push({ field: parameter.name, filename: 'notes.txt', data: Buffer.from('release notes\n') });
    else draft.fields.push({ name: enc(parameter.name), value: enc(wireValue(parameter, value)) });
  }
  return draft;
}

function finish(operation: Operation, draft: Draft): FuzzRequest {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => draft.path.get(name) ?? '');
  // fetch refuses a body on GET and HEAD: their fields travel in the query.
  const bodiless = draft.method === 'GET' || draft.method === 'HEAD';
  let body: Body = { kind: 'none' };
  let query: Field[] = draft.fields;
  if (!bodiless) {
    if (draft.raw) body = { kind: 'raw', ...draft.raw };
    else if (draft.placement === 'form' && draft.fields.length > 0) body = { kind: 'form', fields: draft.fields };
    else if (draft.placement === 'multipart') body = { kind: 'multipart', fields: draft.fields, files: draft.files };
    if (body.kind !== 'none') query = [];
  }
  return { method: draft.method, path, query, body, authorization: draft.authorization };
}

function mutationArbitrary(model: ApiModel, operation: Operation, logins: Login[]): fc.Arbitrary<Mutation> {
  const choices: fc.WeightedArbitrary<Mutation>[] = [];
  const add = (weight: number, mutations: Mutation[]): void => {
    if (mutations.length > 0) choices.push({ weight, arbitrary: fc.constantFrom(...mutations) });
  };
  const fields = operation.parameters.filter((p) => p.location !== 'path' && p.encoding !== 'file');
  add(8, fields.flatMap((p) => valueMutations(model, p)));
  add(2, fields.filter((p) => p.required).map(missingMutation));
  add(2, fields.map(duplicateMutation));
  add(2, unknownMutations());
  add(2, operation.parameters.filter((p) => p.location === 'path').flatMap((p) => pathMutations(model, p)));
  add(3, authMutations(operation, logins));
  if (operation.method !== 'get') add(2, contentTypeMutations(operation));
  add(1, methodMutations(model, operation));
  if (operation.parameters.some((p) => p.encoding === 'file')) add(2, fileMutations());
  return fc.oneof(...choices);
}

function setField(draft: Draft, name: string, value: string): void {
  const field = draft.fields.find((f) => f.name === name);
  if (field) field.value = value;
  else draft.fields.push({ name, value });
}

function valueMutations(model: ApiModel, parameter: Parameter): Mutation[] {
  const name = enc(parameter.name);
  const once = (bodyValues: ReturnType<typeof badValues>, urlValues: ReturnType<typeof badValues>) =>
    bodyValues.map((bad, i) => ({
      target: parameter.name,
      note: `${parameter.name}=${shorten(bad.value)}`,
      apply(draft: Draft): Outcome {
        // Values as long as the body allows would overflow the URL's header limit.
        const chosen = draft.placement === 'query' || draft.method === 'GET' ? urlValues[i]! : bad;
        setField(draft, name, chosen.value);
        if (inFormBody(draft) && breaksForm(chosen.value)) return 'form';
        return chosen.refused ? 'bad' : 'any';
      },
    }));
  return once(badValues(model, parameter, HUGE_BODY_VALUE), badValues(model, parameter, HUGE_URL_VALUE));
}

function missingMutation(parameter: Parameter): Mutation {
  const name = enc(parameter.name);
  return {
    target: parameter.name,
    note: `without required ${parameter.name}`,
    apply(draft) {
      draft.fields = draft.fields.filter((f) => f.name !== name);
      return 'bad';
    },
  };
}

function duplicateMutation(parameter: Parameter): Mutation {
  const name = enc(parameter.name);
  return {
    target: parameter.name,
    note: `${parameter.name} twice`,
    apply(draft) {
      const existing = draft.fields.find((f) => f.name === name);
      const value = existing?.value ?? '1';
      if (!existing) draft.fields.push({ name, value });
      draft.fields.push({ name, value });
      // A list may also be sent as a repeated field.
      return parameter.encoding === 'json' ? 'any' : 'bad';
    },
  };
}

function unknownMutations(): Mutation[] {
  const names = ['zz_unknown', 'api_key', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'name%5Ba%5D', '%00', 'a%00b', '', '%20', 'x'.repeat(2000), ...BROKEN_ESCAPES];
  return names.map((name) => ({
    target: `unknown ${name}`,
    note: `unknown parameter ${shorten(name)}`,
    apply(draft) {
      draft.fields.push({ name, value: '1' });
      return inFormBody(draft) && breaksForm(name) ? 'form' : 'any';
    },
  }));
}

function pathMutations(model: ApiModel, parameter: Parameter): Mutation[] {
  const integer = resolve(model, parameter.schema).kind === 'integer';
  // Only values of at most 100 characters with valid escapes: the router answers others itself (see the report).
  const values: [string, Outcome][] = integer
    ? [
        ...['abc', '1.5', '1e3', '0x10', '%00', '9'.repeat(20), '9'.repeat(100), '-', '%2B1', '%20', 'null', '%5B1%5D', '%F0%9F%92%A9'].map((v): [string, Outcome] => [v, 'bad']),
        ...['-1', '0', '-0', '2147483648', '9007199254740991', '00000000000000000001'].map((v): [string, Outcome] => [v, 'any']),
        ['', 'unroutable'],
        ['%2F', 'unroutable'],
      ]
    : [
        ...['a'.repeat(100), '%00', 'a%20b', 'EXAMPLE.COM', 'example.com.', '%E2%80%AE', '%F0%9F%92%A9', '-', '1'].map((v): [string, Outcome] => [v, 'any']),
        ['', 'unroutable'],
        ['..', 'unroutable'],
        ['%2F', 'unroutable'],
      ];
  return values.map(([value, outcome]) => ({
    target: `path ${parameter.name}`,
    note: `path ${parameter.name}=${shorten(value)}`,
    apply(draft) {
      draft.path.set(parameter.name, value);
      return outcome;
    },
  }));
}

function authMutations(operation: Operation, logins: Login[]): Mutation[] {
  const [first, second] = logins;
  if (!first || !second) throw new Error('need two logins');
  const headers: [string, string | undefined, Outcome][] = [
    ['no Authorization header', undefined, 'unauthorized'],
    ['empty Authorization', '', 'unauthorized'],
    ['Basic without credentials', 'Basic', 'unauthorized'],
    ['Basic and a space', 'Basic ', 'unauthorized'],
    ['not base64', 'Basic !!!!', 'unauthorized'],
    ['no colon', basic('nocolon'), 'unauthorized'],
    ['empty email', basic(`:${first.apiKey}`), 'unauthorized'],
    ['empty key', basic(`${first.email}:`), 'unauthorized'],
    ['wrong key', basic(`${first.email}:${'x'.repeat(32)}`), 'unauthorized'],
    ["another user's key", basic(`${first.email}:${second.apiKey}`), 'unauthorized'],
    ['unknown user', basic(`nobody@example.com:${first.apiKey}`), 'unauthorized'],
    ['bytes that are not UTF-8', basic(Buffer.from([0xff, 0xfe, 0x3a, 0x00, 0xc3, 0x28])), 'unauthorized'],
    ['NUL in the key', basic(`${first.email}:${first.apiKey}\u0000`), 'unauthorized'],
    ['Bearer scheme', `Bearer ${first.apiKey}`, 'unauthorized'],
    ['Digest scheme', 'Digest username="owner"', 'unauthorized'],
    ['trailing garbage', `${basic(`${first.email}:${first.apiKey}`)}!!`, 'unauthorized'],
    ['long header', `Basic ${'A'.repeat(6000)}`, 'unauthorized'],
    // Accepted spellings: the scheme is case-insensitive, emails compare case-insensitively.
    ['lower-case scheme', `basic ${Buffer.from(`${first.email}:${first.apiKey}`).toString('base64')}`, 'any'],
    ['upper-case email', basic(`${first.email.toUpperCase()}:${first.apiKey}`), 'any'],
  ];
  return headers.map(([note, header, outcome]) => ({
    target: 'authorization',
    note,
    apply(draft) {
      draft.authorization = header;
      // Without authentication the header is not read.
      return operation.auth ? outcome : 'any';
    },
  }));
}

function contentTypeMutations(operation: Operation): Mutation[] {
  const bodies: [string, string | undefined, string, Outcome][] = [
    ['a JSON body', 'application/json', '{"a":1}', 'bad'],
    ['broken JSON', 'application/json', '{"a":', 'bad'],
    ['form text declared JSON', 'application/json; charset=utf-8', 'a=1', 'bad'],
    ['text/plain', 'text/plain', 'a=1', 'bad'],
    ['XML', 'application/xml', '<a>1</a>', 'bad'],
    ['no Content-Type', undefined, 'a=1', 'bad'],
    ['octet-stream', 'application/octet-stream', '\u0000\u0001', 'bad'],
    ['multipart without boundary', 'multipart/form-data', 'a=1', 'bad'],
    ['multipart not matching its boundary', 'multipart/form-data; boundary=zz', 'garbage', 'bad'],
    ['truncated multipart', 'multipart/form-data; boundary=zz', '--zz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1', 'bad'],
    ['misspelt form type', 'application/x-www-form-urlencode', 'a=1', 'bad'],
    ['form with a charset', 'application/x-www-form-urlencoded; charset=iso-8859-1', '', 'any'],
    ['form type in capitals', 'APPLICATION/X-WWW-FORM-URLENCODED', '', 'any'],
  ];
  return bodies.map(([note, contentType, data, outcome]) => ({
    target: 'content type',
    note,
    apply(draft) {
      // The two form spellings carry the request's own fields.
      const own = data === '' ? draft.fields.map((f) => `${f.name}=${f.value}`).join('&') : data;
      draft.raw = { contentType, data: own };
      // An upload needs its file part whatever else is wrong.
      return operation.body === 'multipart' ? 'bad' : outcome;
    },
  }));
}

/** Whether two path templates can match one request path (`/users/me` and `/users/{user_id}` can). */
function overlap(a: string, b: string): boolean {
  const as = a.split('/');
  const bs = b.split('/');
  const param = (segment: string): boolean => segment.startsWith('{');
  return as.length === bs.length && as.every((segment, i) => segment === bs[i] || param(segment) || param(bs[i]!));
}

function methodMutations(model: ApiModel, operation: Operation): Mutation[] {
  const taken = new Set(model.operations.filter((o) => overlap(o.path, operation.path)).map((o) => o.method));
  if (taken.has('get')) taken.add('head' as HttpMethod);
  return METHODS.filter((m) => !taken.has(m)).map((method) => ({
    target: 'method',
    note: `method ${method.toUpperCase()}`,
    apply(draft) {
      draft.method = method.toUpperCase();
      return 'method';
    },
  }));
}

function fileMutations(): Mutation[] {
  const file = (filename: string, data: Buffer): FilePart => ({ field: 'file', filename, data });
  const cases: [string, (files: FilePart[]) => FilePart[], Outcome][] = [
    ['no file part', () => [], 'bad'],
    ['two file parts', (files) => [...files, file('b.txt', Buffer.from('b'))], 'bad'],
    ['an empty file', () => [file('empty.txt', Buffer.alloc(0))], 'any'],
    ['a file part under another name', () => [{ field: 'attachment', filename: 'a.txt', data: Buffer.from('a') }], 'any'],
    ['a path as file name', () => [file('../../etc/passwd', Buffer.from('x'))], 'any'],
    ['a file name of 300 characters', () => [file(`${'n'.repeat(296)}.txt`, Buffer.from('x'))], 'any'],
    ['a file name with NUL and non-ASCII', () => [file('a\u0000é💩.txt', Buffer.from('x'))], 'any'],
    ['bytes that are not UTF-8', () => [file('bin.dat', Buffer.from([0xff, 0x00, 0xc3, 0x28]))], 'any'],
  ];
  return cases.map(([note, change, outcome]) => ({
    target: 'file',
    note,
    apply(draft) {
      draft.files = change(draft.files);
      return outcome;
    },
  }));
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 40)}...(${text.length} characters)` : text;
}
