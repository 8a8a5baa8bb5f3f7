import type { BooleanSchema } from '../../../model/types.js';
import { guard, ifBlock, type Stmt } from '../builder.js';
import { KIND_NOUN } from '../describe.js';
import { guarded, type CheckArgs } from './dispatch.js';

export function checkBoolean(args: CheckArgs<BooleanSchema>): Stmt[] {
  const { schema, value, sink, path } = args;
  const rest =
    schema.const === undefined
      ? []
      : ifBlock(`${value} !== ${schema.const}`, sink.fail('const', path, `must be ${schema.const}`));
  return guarded(args, guard(`typeof ${value} === "boolean"`, `typeof ${value} !== "boolean"`), undefined, KIND_NOUN.boolean, rest);
}
