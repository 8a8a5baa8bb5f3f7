import type { RefSchema } from '../../../model/types.js';
import type { Stmt } from '../builder.js';
import { emitCheck, type CheckArgs } from './dispatch.js';

/**
 * A named schema with structure (object, array, union, or `allOf` members
 * and `not` beside its own keywords) is checked by its own function, emitted
 * once and shared: a recursive schema reaches itself only through such a
 * call. A named scalar (an enum, a constant) is a comparison or two, cheaper
 * inline than a call.
 */
export function checkRef(args: CheckArgs<RefSchema>): Stmt[] {
  const target = args.ctx.resolve(args.schema);
  const composed = target.allOf !== undefined || target.not !== undefined;
  if (!composed && target.kind !== 'object' && target.kind !== 'array' && target.kind !== 'union') {
    return emitCheck({ ...args, schema: target });
  }
  const fn = args.ctx.schemaFunction(args.schema.name);
  return args.sink.call(fn, args.value, args.path, args.scope);
}
