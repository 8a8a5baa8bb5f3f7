import { describe, expect, it } from 'vitest';
import { camelName, deriveNames, fileName, OPERATION_TYPE_SUFFIXES, operationNames, pascalName, propertyKey, schemaTypeNames } from '../../../generator/model/names.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

describe('names from spec names', () => {
  const cases: [string, { given: string; camel: string; pascal: string; file: string }][] = [
    ['kebab-case operationId', { given: 'update-stream', camel: 'updateStream', pascal: 'UpdateStream', file: 'update-stream' }],
    ['snake_case', { given: 'user_id', camel: 'userId', pascal: 'UserId', file: 'user-id' }],
    ['camelCase kept', { given: 'getUser', camel: 'getUser', pascal: 'GetUser', file: 'get-user' }],
    ['acronyms split', { given: 'HTTPServer', camel: 'httpServer', pascal: 'HttpServer', file: 'http-server' }],
    ['reserved word', { given: 'delete', camel: 'delete_', pascal: 'Delete', file: 'delete' }],
    ['class', { given: 'class', camel: 'class_', pascal: 'Class', file: 'class' }],
    ['type keyword', { given: 'string', camel: 'string_', pascal: 'String_', file: 'string' }],
    ['global type name', { given: 'error', camel: 'error', pascal: 'Error_', file: 'error' }],
    ['leading digit', { given: '2fa-login', camel: '_2faLogin', pascal: '_2faLogin', file: '2fa-login' }],
    ['accents stripped', { given: 'café-ünïcode', camel: 'cafeUnicode', pascal: 'CafeUnicode', file: 'cafe-unicode' }],
    ['other scripts encoded', { given: '名前', camel: 'u540dU524d', pascal: 'U540dU524d', file: 'u540d-u524d' }],
    ['quotes and symbols', { given: `it's "quoted" */`, camel: 'itSQuoted', pascal: 'ItSQuoted', file: 'it-s-quoted' }],
    ['nothing usable', { given: '***', camel: '_', pascal: '_', file: '_' }],
    ['device file name', { given: 'con', camel: 'con', pascal: 'Con', file: 'con_' }],
  ];
  it.each(cases)('%s', (_, { given, camel, pascal, file }) => {
    expect({ camel: camelName(given), pascal: pascalName(given), file: fileName(given) }).toEqual({ camel, pascal, file });
    expect(camelName(given)).toMatch(IDENTIFIER);
    expect(pascalName(given)).toMatch(IDENTIFIER);
  });
});

describe('collisions', () => {
  it('suffixes duplicates in sorted order of the raw names, whatever the input order', () => {
    const a = deriveNames(['get-user', 'getUser', 'get_user']);
    const b = deriveNames(['get_user', 'getUser', 'get-user']);
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
    expect(a.get('get-user')).toEqual({ camel: 'getUser', pascal: 'GetUser', file: 'get-user' });
    expect(a.get('getUser')).toEqual({ camel: 'getUser2', pascal: 'GetUser2', file: 'get-user-2' });
    expect(a.get('get_user')).toEqual({ camel: 'getUser3', pascal: 'GetUser3', file: 'get-user-3' });
  });

  it('treats names differing only by case as a collision (file systems may not tell them apart)', () => {
    const names = deriveNames(['ab', 'AB']);
    expect(new Set([...names.values()].map((n) => n.file.toLowerCase())).size).toBe(2);
  });
});

describe('operation names', () => {
  const pascals = (ids: string[]) => Object.fromEntries([...operationNames(ids)].map(([id, names]) => [id, names.pascal]));

  it('gives way, in sorted order of ids, when one operation\'s aliases meet another\'s', () => {
    // get-user-error2 sorts first and keeps its own name, so getUserError skips it.
    const expected = { getUser: 'GetUser', getUserError: 'GetUserError3', 'get-user-error2': 'GetUserError2', listThings: 'ListThings' };
    expect(pascals(['getUserError', 'listThings', 'get-user-error2', 'getUser'])).toEqual(expected);
    expect(pascals(['getUser', 'getUserError', 'get-user-error2', 'listThings'])).toEqual(expected);
    // The function and the file keep their names.
    expect(operationNames(['getUser', 'getUserError']).get('getUserError')).toMatchObject({ camel: 'getUserError', file: 'get-user-error' });
  });

  it('leaves every alias of every operation distinct', () => {
    const ids = ['a', 'aError', 'aErrorError', 'aResponse', 'aResponseHeaders', 'aParams', 'a2', 'a2Error', 'aError2'];
    const aliases = [...operationNames(ids).values()].flatMap((n) => OPERATION_TYPE_SUFFIXES.map((suffix) => `${n.pascal}${suffix}`));
    expect(new Set(aliases).size).toBe(aliases.length);
    expect(pascals(['a', 'b'])).toEqual({ a: 'A', b: 'B' });
  });
});

describe('named types of component schemas', () => {
  /** The named types of `schemas` beside operations named `operations`, both through `deriveNames` as the model does. */
  const typeNames = (schemas: string[], operations: string[]): Record<string, string> => {
    const schemaNames = deriveNames(schemas);
    const operationNames = deriveNames(operations);
    const named = schemas.map((name) => ({ name, names: schemaNames.get(name)! }));
    return Object.fromEntries(schemaTypeNames(named, operations.map((id) => operationNames.get(id)!)));
  };
  const cases: [string, { schemas: string[]; operations: string[]; want: Record<string, string> }][] = [
    ['PascalCase of the schema name', { schemas: ['profile_data', 'Message'], operations: ['get-message'], want: { profile_data: 'ProfileData', Message: 'Message' } }],
    ['an operation alias keeps its name', { schemas: ['GetMessageResponse'], operations: ['get-message'], want: { GetMessageResponse: 'GetMessageResponse2' } }],
    [
      'each alias suffix is taken',
      {
        schemas: ['getMessageParams', 'GetMessageResponses', 'get_message_error_responses', 'GetMessageResponseHeaders'],
        operations: ['getMessage'],
        want: { getMessageParams: 'GetMessageParams2', GetMessageResponses: 'GetMessageResponses2', get_message_error_responses: 'GetMessageErrorResponses2', GetMessageResponseHeaders: 'GetMessageResponseHeaders2' },
      },
    ],
    ['fixed names of the module', { schemas: ['UploadFile', 'error_body', 'ErrorCode', 'LowerCaseKeys'], operations: [], want: { UploadFile: 'UploadFile2', error_body: 'ErrorBody2', ErrorCode: 'ErrorCode2', LowerCaseKeys: 'LowerCaseKeys2' } }],
    ["openapi-typescript's helpers and globals the aliases use", { schemas: ['WithRequired', 'Readable', 'Writable', 'NonNullable', 'Lowercase'], operations: [], want: { WithRequired: 'WithRequired2', Readable: 'Readable2', Writable: 'Writable2', NonNullable: 'NonNullable2', Lowercase: 'Lowercase2' } }],
    ['a free name never moves for a yielding one', { schemas: ['UploadFile', 'UploadFile2'], operations: [], want: { UploadFile: 'UploadFile3', UploadFile2: 'UploadFile2' } }],
    ['a yielding schema skips what another schema has', { schemas: ['ListParams', 'list_params'], operations: ['list'], want: { ListParams: 'ListParams3', list_params: 'ListParams2' } }],
    ['a schema named like an operation (no suffix) keeps its name', { schemas: ['GetMessage'], operations: ['get-message'], want: { GetMessage: 'GetMessage' } }],
  ];
  it.each(cases)('%s', (_, { schemas, operations, want }) => {
    expect(typeNames(schemas, operations)).toEqual(want);
    expect(typeNames([...schemas].reverse(), [...operations].reverse())).toEqual(want);
  });
});

describe('propertyKey', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['identifier', { given: 'stream_id', want: 'stream_id' }],
    ['dash', { given: 'retry-after', want: '"retry-after"' }],
    ['quotes', { given: `it's "x"`, want: `"it's \\"x\\""` }],
    ['leading digit', { given: '2fa', want: '"2fa"' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(propertyKey(given)).toBe(want));
});
