import type { AnySchema } from '../../../model/types.js';
import type { CheckArgs } from './dispatch.js';

/** A schema without constraints accepts every value, so nothing is emitted. */
export function checkAny(_args: CheckArgs<AnySchema>): string[] {
  return [];
}
