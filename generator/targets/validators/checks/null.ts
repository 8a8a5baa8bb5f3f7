import type { NullSchema } from '../../../model/types.js';
import { KIND_NOUN } from '../describe.js';
import { guarded, type CheckArgs } from './dispatch.js';

export function checkNull(args: CheckArgs<NullSchema>): string[] {
  return guarded(args, `${args.value} === null`, undefined, KIND_NOUN.null, []);
}
