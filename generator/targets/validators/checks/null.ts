import type { NullSchema } from '../../../model/types.js';
import { guard, type Stmt } from '../builder.js';
import { KIND_NOUN } from '../describe.js';
import { guarded, type CheckArgs } from './dispatch.js';

export function checkNull(args: CheckArgs<NullSchema>): Stmt[] {
  return guarded(args, guard(`${args.value} === null`, `${args.value} !== null`), undefined, KIND_NOUN.null, []);
}
