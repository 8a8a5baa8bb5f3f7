import type { RefSchema } from '../../../model/types.js';
import type { CheckArgs } from './dispatch.js';

/** A named schema is checked by its own function, emitted once and shared. */
export function checkRef(args: CheckArgs<RefSchema>): string[] {
  const fn = args.ctx.schemaFunction(args.schema.name);
  return args.sink.call(fn, args.value, args.path, args.scope);
}
