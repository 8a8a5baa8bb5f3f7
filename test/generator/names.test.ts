import { describe, expect, it } from 'vitest';
import { camelName, deriveNames, fileName, pascalName, propertyKey } from '../../generator/model/names.js';

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

describe('propertyKey', () => {
  const cases: [string, { given: string; want: string }][] = [
    ['identifier', { given: 'stream_id', want: 'stream_id' }],
    ['dash', { given: 'retry-after', want: '"retry-after"' }],
    ['quotes', { given: `it's "x"`, want: `"it's \\"x\\""` }],
    ['leading digit', { given: '2fa', want: '"2fa"' }],
  ];
  it.each(cases)('%s', (_, { given, want }) => expect(propertyKey(given)).toBe(want));
});
