import type { AnySchema } from '../../../model/types.js';
import { ifBlock, type Stmt } from '../builder.js';
import { literal } from '../code.js';
import { jsonEqualHelper } from './constants.js';
import type { CheckArgs } from './dispatch.js';

/**
 * A schema without a type accepts every value, unless it lists the values
 * (`enum`, `const` of objects, arrays or mixed types): compared as JSON.
 */
export function checkAny(args: CheckArgs<AnySchema>): Stmt[] {
  const { schema, value, sink, path, ctx, label } = args;
  if (schema.const !== undefined) {
    const expected = ctx.constant(`${label}Value`, literal(schema.const));
    return ifBlock(`!${jsonEqualHelper(ctx)}(${value}, ${expected})`, sink.fail('const', path, `must be ${literal(schema.const)}`));
  }
  if (schema.enum !== undefined) {
    const values = ctx.constant(`${label}Values`, `${literal(schema.enum)} as unknown[]`);
    const equal = jsonEqualHelper(ctx);
    return ifBlock(`!${values}.some((e) => ${equal}(${value}, e))`, sink.fail('enum', path, `must be one of ${schema.enum.map((v) => literal(v)).join(', ')}`));
  }
  return [];
}
