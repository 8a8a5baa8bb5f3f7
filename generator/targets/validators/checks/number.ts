import type { IntegerSchema, NumberSchema } from '../../../model/types.js';
import { ifBlock, literal } from '../code.js';
import { KIND_NOUN } from '../describe.js';
import { guarded, type CheckArgs } from './dispatch.js';
import { enumMiss } from './constants.js';

function limits(args: CheckArgs<IntegerSchema | NumberSchema>): string[] {
  const { schema, value, sink, path } = args;
  const lines: string[] = [];
  if (schema.minimum !== undefined) {
    lines.push(...ifBlock(`${value} < ${literal(schema.minimum)}`, sink.fail('minimum', path, `must be at least ${schema.minimum}`)));
  }
  if (schema.maximum !== undefined) {
    lines.push(...ifBlock(`${value} > ${literal(schema.maximum)}`, sink.fail('maximum', path, `must be at most ${schema.maximum}`)));
  }
  return lines;
}

export function checkInteger(args: CheckArgs<IntegerSchema>): string[] {
  const { schema, value, sink, path, ctx } = args;
  const rest: string[] = [];
  if (schema.const !== undefined) {
    rest.push(...ifBlock(`${value} !== ${literal(schema.const)}`, sink.fail('const', path, `must be ${schema.const}`)));
  }
  if (schema.enum !== undefined) {
    rest.push(...ifBlock(enumMiss(value, schema.enum, ctx), sink.fail('enum', path, `must be one of ${schema.enum.join(', ')}`)));
  }
  rest.push(...limits(args));
  return guarded(
    args,
    `typeof ${value} === "number" && Number.isInteger(${value})`,
    `Number.isInteger(${value})`,
    KIND_NOUN.integer,
    rest,
  );
}

export function checkNumber(args: CheckArgs<NumberSchema>): string[] {
  const { value } = args;
  return guarded(
    args,
    `typeof ${value} === "number" && Number.isFinite(${value})`,
    `Number.isFinite(${value})`,
    KIND_NOUN.number,
    limits(args),
  );
}
