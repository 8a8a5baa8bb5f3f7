/**
 * Parameter serialisation of the client runtime against the style examples
 * of the OpenAPI specification (the parameter `color` with the empty value,
 * the string "blue", the array ["blue","black","brown"] and the object
 * {R:100,G:200,B:150}), written out by hand from the style rules and RFC 6570
 * (label and matrix as RFC 6570 expands them), then the cases the table
 * leaves out: reserved characters, allowReserved, nested deepObject values.
 */
import { describe, expect, it } from 'vitest';
import { responseKind } from '../../runtime/client/answers.js';
import { buildRequest } from '../../runtime/client/request.js';
import {
  cookieParam,
  encodeText,
  headerParam,
  pathParam,
  queryParam,
  serializeCookie,
  serializeHeader,
  serializePath,
  serializeQuery,
  styledPathParam,
  styledQueryParam,
} from '../../runtime/client/serialize.js';
import type { OperationSpec } from '../../runtime/client/types.js';

const STRING = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

describe('path parameters (simple, label, matrix)', () => {
  it.each([
    // style, explode, empty, string, array, object
    ['matrix', false, ';color', ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, ';color', ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
    ['label', false, '.', '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, '.', '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['simple', false, '', 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, '', 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
  ] as const)('%s, explode %s', (style, explode, empty, string, array, object) => {
    expect(serializePath('color', null, style, explode)).toBe(empty);
    expect(serializePath('color', STRING, style, explode)).toBe(string);
    expect(serializePath('color', ARRAY, style, explode)).toBe(array);
    expect(serializePath('color', OBJECT, style, explode)).toBe(object);
  });

  it('percent-encodes values (reserved characters included) but not its own delimiters', () => {
    expect(serializePath('id', 'a/b c?', 'simple')).toBe('a%2Fb%20c%3F');
    expect(serializePath('ids', ['x,y', 'z'], 'simple')).toBe('x%2Cy,z');
    expect(serializePath('ids', ['é', '!'], 'label', true)).toBe('.%C3%A9.%21');
  });
});

describe('query parameters (form, spaceDelimited, pipeDelimited, deepObject)', () => {
  it.each([
    ['form', false, 'color=', 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    ['form', true, 'color=', 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
  ] as const)('%s, explode %s', (style, explode, empty, string, array, object) => {
    const q = (value: unknown) => serializeQuery('color', value, style, explode).join('&');
    expect(q(null)).toBe(empty);
    expect(q(STRING)).toBe(string);
    expect(q(ARRAY)).toBe(array);
    expect(q(OBJECT)).toBe(object);
  });

  it('spaceDelimited and pipeDelimited (not exploded) join arrays and objects', () => {
    expect(serializeQuery('color', ARRAY, 'spaceDelimited', false)).toEqual(['color=blue%20black%20brown']);
    expect(serializeQuery('color', OBJECT, 'spaceDelimited', false)).toEqual(['color=R%20100%20G%20200%20B%20150']);
    expect(serializeQuery('color', ARRAY, 'pipeDelimited', false)).toEqual(['color=blue|black|brown']);
    expect(serializeQuery('color', OBJECT, 'pipeDelimited', false)).toEqual(['color=R|100|G|200|B|150']);
  });

  it('spaceDelimited and pipeDelimited exploded repeat the name, as form does', () => {
    expect(serializeQuery('color', ARRAY, 'pipeDelimited', true)).toEqual(['color=blue', 'color=black', 'color=brown']);
  });

  it('deepObject puts each key in brackets, nested objects and lists deeper, lists indexed', () => {
    expect(serializeQuery('color', OBJECT, 'deepObject', true).join('&')).toBe('color[R]=100&color[G]=200&color[B]=150');
    expect(serializeQuery('filter', { owner: { name: 'a b' }, tag: ['x', 'y'], skip: undefined }, 'deepObject', true)).toEqual([
      'filter[owner][name]=a%20b',
      'filter[tag][0]=x',
      'filter[tag][1]=y',
    ]);
    expect(serializeQuery('items', [{ price: 'p', tiers: [[1], []] }, { price: null }], 'deepObject', true)).toEqual([
      'items[0][price]=p',
      'items[0][tiers][0][0]=1',
      'items[1][price]=',
    ]);
    expect(serializeQuery('expand', ARRAY, 'deepObject', true)).toEqual(['expand[0]=blue', 'expand[1]=black', 'expand[2]=brown']);
    expect(serializeQuery('expand', null, 'deepObject', true)).toEqual(['expand=']);
  });

  it('encodes values and names; a delimiter inside a value is encoded, the delimiter itself is not', () => {
    expect(serializeQuery('q', 'a&b=c d/é')).toEqual(['q=a%26b%3Dc%20d%2F%C3%A9']);
    expect(serializeQuery('tags', ['a,b', 'c'], 'form', false)).toEqual(['tags=a%2Cb,c']);
    expect(serializeQuery('odd name', 1)).toEqual(['odd%20name=1']);
  });

  it('allowReserved sends reserved characters as they are, still encoding the rest', () => {
    expect(serializeQuery('path', '/a/b:c?d', 'form', true, true)).toEqual(['path=/a/b:c?d']);
    expect(serializeQuery('path', 'a b%', 'form', true, true)).toEqual(['path=a%20b%25']);
    expect(serializeQuery('path', '/a/b', 'form', true, false)).toEqual(['path=%2Fa%2Fb']);
  });

  it('writes scalars as text: numbers, booleans, and an empty array as nothing when exploded', () => {
    expect(serializeQuery('n', 1.5)).toEqual(['n=1.5']);
    expect(serializeQuery('b', false)).toEqual(['b=false']);
    expect(serializeQuery('list', [], 'form', true)).toEqual([]);
    expect(serializeQuery('list', [], 'form', false)).toEqual(['list=']);
  });
});

describe('header and cookie parameters', () => {
  it('headers are simple: comma-joined, objects as pairs or key=value when exploded, never percent-encoded', () => {
    expect(serializeHeader(STRING)).toBe('blue');
    expect(serializeHeader(ARRAY)).toBe('blue,black,brown');
    expect(serializeHeader(OBJECT, false)).toBe('R,100,G,200,B,150');
    expect(serializeHeader(OBJECT, true)).toBe('R=100,G=200,B=150');
    expect(serializeHeader('a b/c')).toBe('a b/c');
    expect(serializeHeader(7)).toBe('7');
  });

  it('cookies are form style: exploded arrays repeat the cookie, objects spread; values percent-encoded', () => {
    expect(serializeCookie('color', STRING)).toEqual(['color=blue']);
    expect(serializeCookie('color', ARRAY, false)).toEqual(['color=blue,black,brown']);
    expect(serializeCookie('color', ARRAY, true)).toEqual(['color=blue', 'color=black', 'color=brown']);
    expect(serializeCookie('color', OBJECT, false)).toEqual(['color=R,100,G,200,B,150']);
    expect(serializeCookie('color', OBJECT, true)).toEqual(['R=100', 'G=200', 'B=150']);
    expect(serializeCookie('session', 'a;b c')).toEqual(['session=a%3Bb%20c']);
  });
});

describe('encodeText', () => {
  it('leaves only RFC 3986 unreserved characters', () => {
    expect(encodeText("AZaz09-._~!*'() ")).toBe('AZaz09-._~%21%2A%27%28%29%20');
    expect(encodeText('€')).toBe('%E2%82%AC');
    expect(encodeText('😀')).toBe('%F0%9F%98%80');
  });
});

/** An operation table entry with parameters in every location. */
const everywhere: OperationSpec = {
  name: 'listItems',
  method: 'GET',
  path: '/items/{id}{coords}',
  responses: { '200': [['application/json', 'json']], '404': [['application/problem+json', 'json']] },
  params: [
    { name: 'id', in: 'path', write: pathParam, encoding: 'plain' },
    { name: 'coords', in: 'path', write: styledPathParam, encoding: 'plain', style: 'matrix', explode: true },
    { name: 'tags', in: 'query', write: styledQueryParam, encoding: 'plain', style: 'pipeDelimited', explode: false },
    { name: 'filter', in: 'query', write: styledQueryParam, encoding: 'plain', style: 'deepObject', explode: true },
    { name: 'where', in: 'query', write: queryParam, encoding: 'json' },
    { name: 'id', key: 'header_id', in: 'header', write: headerParam, encoding: 'plain' },
    { name: 'X-Trace', in: 'header', write: headerParam, encoding: 'plain' },
    { name: 'prefs', in: 'cookie', write: cookieParam, encoding: 'plain', explode: false },
    { name: 'session', in: 'cookie', write: cookieParam, encoding: 'plain' },
  ],
};

describe('buildRequest', () => {
  it('puts each parameter where its table entry says, keyed by its key', () => {
    const built = buildRequest(everywhere, {
      id: 'a b',
      coords: { x: 1, y: 2 },
      tags: ['red', 'green'],
      filter: { size: 'L' },
      where: { age: { gt: 3 } },
      header_id: 'h-1',
      'X-Trace': ['t1', 't2'],
      prefs: ['dark', 'compact'],
      session: 'xyz',
    });
    expect(built.path).toBe('/items/a%20b;x=1;y=2');
    expect(built.query).toEqual(['tags=red|green', 'filter[size]=L', 'where=%7B%22age%22%3A%7B%22gt%22%3A3%7D%7D']);
    expect(built.headers).toEqual({ Accept: 'application/json, application/problem+json', id: 'h-1', 'X-Trace': 't1,t2' });
    expect(built.cookies).toEqual(['prefs=dark,compact', 'session=xyz']);
    expect(built.body).toBeUndefined();
  });

  it('skips undefined optional parameters and refuses a missing path parameter', () => {
    const built = buildRequest(everywhere, { id: 1, coords: null });
    expect([built.path, built.query, built.cookies]).toEqual(['/items/1;coords', [], []]);
    expect(() => buildRequest(everywhere, { coords: 1 })).toThrow('listItems: missing path parameter "id"');
  });

  it('sends no Accept header when no response declares a body', () => {
    const built = buildRequest({ name: 'ping', method: 'POST', path: '/ping', params: [], responses: { '204': [] } }, {});
    expect(built.headers).toEqual({});
  });
});

describe('responseKind', () => {
  const declared = [
    ['application/json', 'json'],
    ['text/csv', 'text'],
    ['image/*', 'binary'],
  ] as const;

  it('reads a body as the declared media type its Content-Type matches (wildcards and parameters included)', () => {
    expect(responseKind('application/json; charset=utf-8', declared)).toBe('json');
    expect(responseKind('text/csv', declared)).toBe('text');
    expect(responseKind('image/png', declared)).toBe('binary');
  });

  it('falls back to the only declared kind, then to the Content-Type itself', () => {
    expect(responseKind('text/plain', [['application/json', 'json']])).toBe('json');
    expect(responseKind('application/vnd.api+json', undefined)).toBe('json');
    expect(responseKind('text/html', undefined)).toBe('text');
    expect(responseKind('application/pdf', undefined)).toBe('binary');
    expect(responseKind(null, undefined)).toBe('json');
  });
});
