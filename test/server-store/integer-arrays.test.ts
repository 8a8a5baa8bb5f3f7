/**
 * The PostgreSQL driver's reader of integer arrays (parseIntegerArray) gives
 * what pg's own parser gives for every text PostgreSQL writes for int2[],
 * int4[] and int8[] (the int8 one maps pg's strings to numbers, as the
 * driver always did); the texts it does not read itself go to pg's.
 */
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseIntegerArray } from '../../server/store/postgres.js';

const pgInt4 = pg.types.getTypeParser(1007 as Parameters<typeof pg.types.getTypeParser>[0], 'text') as (text: string) => unknown;
const pgInt8Text = pg.types.getTypeParser(1016 as Parameters<typeof pg.types.getTypeParser>[0], 'text') as (text: string) => unknown;
const toNumbers = (value: unknown): unknown => (Array.isArray(value) ? value.map(toNumbers) : value === null ? null : Number(value));
const pgInt8 = (text: string) => toNumbers(pgInt8Text(text));

/** The text PostgreSQL writes for an array (NULL unquoted, no spaces). */
const arrayText = (values: unknown): string =>
  Array.isArray(values) ? `{${values.map(arrayText).join(',')}}` : values === null ? 'NULL' : String(values);

const int4 = fc.integer({ min: -2147483648, max: 2147483647 });
const int8 = fc.oneof(fc.maxSafeInteger(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }));

describe('parseIntegerArray', () => {
  it('reads one-dimensional int4 arrays as pg does, and hands everything else to pg', () => {
    fc.assert(
      fc.property(fc.oneof(fc.array(int4), fc.array(fc.option(int4)), fc.array(fc.array(int4, { minLength: 2, maxLength: 2 }), { minLength: 1 })), (values) => {
        const text = arrayText(values);
        expect(parseIntegerArray(text, pgInt4)).toEqual(pgInt4(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads int8 arrays as the driver did before (numbers, long values through pg)', () => {
    fc.assert(
      fc.property(fc.array(fc.option(int8, { freq: 8 })), (values) => {
        const text = arrayText(values);
        expect(parseIntegerArray(text, pgInt8)).toEqual(pgInt8(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the common case itself and falls back only where it must', () => {
    const calls: string[] = [];
    const fallback = (text: string) => (calls.push(text), 'fallback');
    expect(parseIntegerArray('{106,107,-3,0}', fallback)).toEqual([106, 107, -3, 0]);
    expect(parseIntegerArray('{}', fallback)).toEqual([]);
    expect(calls).toEqual([]);
    for (const text of ['{1,NULL}', '{{1,2}}', '{1,,2}', '{-}', '{1-2}', '{--1}', '{1234567890123456}', '[1:2]={1,2}', '{ 1}'])
      expect(parseIntegerArray(text, fallback), text).toBe('fallback');
    expect(calls).toHaveLength(9);
  });
});
