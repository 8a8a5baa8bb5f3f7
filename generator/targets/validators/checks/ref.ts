import type { RefSchema } from '../../../model/types.js';
import { emitCheck, type CheckArgs } from './dispatch.js';

/**
 * A named schema with structure (object, array, union) is checked by its own
 * function, emitted once and shared. A named scalar (an enum, a constant) is
 * a comparison or two, cheaper inline than a call.
 */
export function checkRef(args: CheckArgs<RefSchema>): string[] {
  const target = args.ctx.resolve(args.schema);
  if (target.kind !== 'object' && target.kind !== 'array' && target.kind !== 'union') {
    return emitCheck({ ...args, schema: target });
  }
  const fn = args.ctx.schemaFunction(args.schema.name);
  return args.sink.call(fn, args.value, args.path, args.scope);
}
