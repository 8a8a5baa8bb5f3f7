/**
 * `hasDiscriminator` (generator/targets/types/transform.ts) decides whether
 * openapi-typescript's discriminator scan runs: it must see every object the
 * scan sees, data and arrays included, and only a `discriminator` that has a
 * `propertyName`.
 */
import { expect, it } from 'vitest';
import { hasDiscriminator } from '../../../generator/targets/types/transform.js';

const cases: [string, { given: unknown; want: boolean }][] = [
  ['no discriminator', { given: { components: { schemas: { A: { type: 'object', properties: { kind: { type: 'string' } } } } } }, want: false }],
  ['on a component schema', { given: { components: { schemas: { A: { discriminator: { propertyName: 'kind' }, allOf: [] } } } }, want: true }],
  ['inside a list', { given: { paths: { '/a': { get: { parameters: [{ schema: { oneOf: [{ discriminator: { propertyName: 'k' } }] } }] } } } }, want: true }],
  ['inside an example value', { given: { components: { examples: { E: { value: { discriminator: { propertyName: 'k' } } } } } }, want: true }],
  ['without a propertyName', { given: { components: { schemas: { A: { discriminator: { mapping: { a: '#/components/schemas/A' } } } } } }, want: false }],
  ['with an empty propertyName', { given: { components: { schemas: { A: { discriminator: { propertyName: '' } } } } }, want: false }],
  ['a discriminator that is not an object', { given: { components: { schemas: { A: { discriminator: 'kind' } } } }, want: false }],
  ['null values', { given: { a: null, b: [null, 1, 'x'] }, want: false }],
];

it.each(cases)('%s', (_, { given, want }) => {
  expect(hasDiscriminator(given)).toBe(want);
});
