import { listLiteral, literal } from '../code.js';
import type { EmitContext } from '../context.js';

/** Up to this many values are compared inline; more go through a hoisted Set. */
const INLINE_LIMIT = 4;

/** An expression that is true when `value` is not one of `values`. */
export function enumMiss(value: string, values: readonly (string | number)[], ctx: EmitContext, prefix = 'ENUM'): string {
  if (values.length <= INLINE_LIMIT) {
    return values.length === 0 ? 'true' : values.map((v) => `${value} !== ${literal(v)}`).join(' && ');
  }
  const type = typeof values[0] === 'number' ? 'number' : 'string';
  const set = ctx.constant(prefix, `new Set<${type}>(${listLiteral(values)})`);
  return `!${set}.has(${value})`;
}

/** A hoisted RegExp for a schema pattern (JSON Schema patterns are Unicode-aware), checked at generation time. */
export function patternConstant(pattern: string, ctx: EmitContext): string {
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    throw new Error(`invalid pattern ${literal(pattern)}: ${(error as Error).message}`);
  }
  return ctx.constant('PATTERN', `new RegExp(${literal(pattern)}, "u")`);
}
