import type { IntegerSchema, NumberSchema } from '../../../model/types.js';
import { guard, ifBlock, type Stmt } from '../builder.js';
import { literal } from '../code.js';
import { KIND_NOUN } from '../describe.js';
import { guarded, type CheckArgs } from './dispatch.js';
import { ENUM_INLINE_LIMIT, enumMiss } from './constants.js';

function constraints(args: CheckArgs<IntegerSchema | NumberSchema>): Stmt[] {
  const { schema, value, sink, path, ctx } = args;
  const lines: Stmt[] = [];
  if (schema.const !== undefined) {
    lines.push(...ifBlock(`${value} !== ${literal(schema.const)}`, sink.fail('const', path, `must be ${schema.const}`)));
  }
  if (schema.enum !== undefined) {
    lines.push(...ifBlock(enumMiss(value, schema.enum, ctx, `${args.label}Values`, ENUM_INLINE_LIMIT), sink.fail('enum', path, `must be one of ${schema.enum.join(', ')}`)));
  }
  const bound = (key: keyof NumberSchema, operator: string, message: string) => {
    const limit = schema[key] as number | undefined;
    if (limit !== undefined) lines.push(...ifBlock(`${value} ${operator} ${literal(limit)}`, sink.fail(key, path, `${message} ${limit}`)));
  };
  bound('minimum', '<', 'must be at least');
  bound('maximum', '>', 'must be at most');
  bound('exclusiveMinimum', '<=', 'must be greater than');
  bound('exclusiveMaximum', '>=', 'must be less than');
  if (schema.multipleOf !== undefined) {
    // As ajv: the quotient must be a whole number (so 0.3 is a multiple of 0.1 only where floating point says so).
    const test = schema.multipleOf === 1 ? `!Number.isInteger(${value})` : `!Number.isInteger(${value} / ${literal(schema.multipleOf)})`;
    lines.push(...ifBlock(test, sink.fail('multipleOf', path, `must be a multiple of ${schema.multipleOf}`)));
  }
  return lines;
}

// Number.isInteger and Number.isFinite are false for anything but a number, so
// `typeof` is written only where later comparisons need TypeScript to know the type.
export function checkInteger(args: CheckArgs<IntegerSchema>): Stmt[] {
  const { value } = args;
  const rest = constraints(args);
  const known = guard(`Number.isInteger(${value})`, `!Number.isInteger(${value})`);
  return guarded(
    args,
    rest.length === 0 ? known : guard(`typeof ${value} === "number" && Number.isInteger(${value})`),
    known,
    KIND_NOUN.integer,
    rest,
  );
}

export function checkNumber(args: CheckArgs<NumberSchema>): Stmt[] {
  const { value } = args;
  const rest = constraints(args);
  const known = guard(`Number.isFinite(${value})`, `!Number.isFinite(${value})`);
  return guarded(
    args,
    rest.length === 0 ? known : guard(`typeof ${value} === "number" && Number.isFinite(${value})`),
    known,
    KIND_NOUN.number,
    rest,
  );
}
