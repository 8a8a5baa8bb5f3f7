/**
 * `fastCreateRef` (generator/targets/types/pointers.ts) against
 * openapi-typescript's own `createRef`: the same pointer, or the same
 * failure, for pointers it built, keys of every kind, and arbitrary text;
 * `rememberingParseRef` against `parseRef`; and the originals put back once
 * the transform has run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openapiTypescriptTransform } from '../../../../generator/cjs.js';
import { fastCreateRef, rememberingParseRef, withFastRefs, type RefPart } from '../../../../generator/targets/types/pointers.js';

const { utils, refUtils } = openapiTypescriptTransform();
const original = utils.createRef as (parts: readonly RefPart[]) => string;
const fast = fastCreateRef(refUtils);

function outcome(create: (parts: readonly RefPart[]) => string, parts: readonly RefPart[]): string {
  try {
    return create(parts);
  } catch (error) {
    return `failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
}

describe('fastCreateRef', () => {
  it.each<[string, RefPart[]]>([
    ['component', ['components', 'schemas', 'Pet']],
    ['a path and a method', ['#/paths/~1pets~1{id}', 'get']],
    ['a media type under a built pointer', ['#/paths/~1pets/post/requestBody', 'content', 'application/json']],
    ['a status as a number', ['#/paths/~1a/get/responses', 200]],
    ['skipped parts', [undefined, '#/paths/~1a', null, '', 'get']],
    ['a tilde key', ['#/components/schemas', 'a~b']],
    ['escapes in a pointer', ['#/components/schemas/a~0b~1c', 'properties']],
    ['a tilde that starts no escape', ['#/components/schemas/a~2b']],
    ['percent-encoding', ['#/paths/~1a%20b/get']],
    ['malformed percent-encoding', ['#/paths/~1a%zz/get']],
    ['empty segments', ['#/paths//a/', 'get']],
    ['only a hash', ['#/']],
    ['a URI before the pointer', ['other.yaml#/components/schemas/Pet']],
    ['two pointers in one part', ['#/a#/b/c']],
    ['a hash without a slash', ['#a', 'b']],
    ['a key holding a slash', ['#/components/schemas', 'a/b']],
  ])('%s', (_name, parts) => {
    expect(outcome(fast, parts)).toBe(outcome(original, parts));
  });

  it('agrees with createRef on arbitrary parts', () => {
    const segment = fc.oneof(fc.string(), fc.constantFrom('~', '~0', '~1', '~2', '/', '%', '%20', '%zz', '#', '#/', ''));
    const text = fc.array(segment, { maxLength: 5 }).map((pieces) => pieces.join(''));
    const part = fc.oneof(text, text.map((t) => `#/${t}`), fc.integer({ min: 0, max: 600 }), fc.constantFrom(undefined, null, ''));
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        expect(outcome(fast, parts)).toBe(outcome(original, parts));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with createRef on pointers it built, level by level', () => {
    const key = fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('application/json', '{id}', 'a~b', '200', 'x-y'));
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 8 }), (keys) => {
        let viaFast = '#';
        let viaOriginal = '#';
        for (const k of keys) {
          viaFast = outcome(fast, [viaFast, k]);
          viaOriginal = outcome(original, [viaOriginal, k]);
          expect(viaFast).toBe(viaOriginal);
        }
      }),
    );
  });
});

describe('rememberingParseRef', () => {
  it('reads as parseRef, with objects of its own for each call', () => {
    const parse = rememberingParseRef(refUtils.parseRef);
    for (const ref of ['#/components/schemas/Pet', '#/components/schemas/Pet', 'other.yaml#/a~1b/c%20d', '#/']) {
      const first = parse(ref);
      expect(first).toEqual(refUtils.parseRef(ref));
      first.pointer.pop();
      expect(parse(ref)).toEqual(refUtils.parseRef(ref));
    }
    expect(() => parse('#/a%zz')).toThrow(URIError);
  });
});

it('puts the original createRef and parseRef back, also after a failure', () => {
  const parseRef = refUtils.parseRef;
  expect(withFastRefs(utils, refUtils, () => [utils.createRef, refUtils.parseRef])).not.toContain(original);
  expect(utils.createRef).toBe(original);
  expect(refUtils.parseRef).toBe(parseRef);
  expect(() =>
    withFastRefs(utils, refUtils, () => {
      throw new Error('transform failed');
    }),
  ).toThrow('transform failed');
  expect(utils.createRef).toBe(original);
  expect(refUtils.parseRef).toBe(parseRef);
});
