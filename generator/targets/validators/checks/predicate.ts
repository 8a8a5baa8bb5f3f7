import type { Schema } from '../../../model/types.js';
import { withoutDeadCode } from '../code.js';
import type { EmitContext, Scope } from '../context.js';
import { collectSink, type Sink } from '../sink.js';
import { emitCheck } from './dispatch.js';

/**
 * The sink of predicate functions `(v, strict) => boolean`: a failure is
 * `return false;`, a named or shared schema is its own predicate. They run
 * where only "does it match" matters (union variants, `not`, `contains`) and
 * first in every check function, so a valid value never builds a failure
 * record, a path or a message, and never reads `out`.
 */
export function testSink(ctx: EmitContext, strict: string): Sink {
  return {
    fail: () => ['return false;'],
    call: (fn, value) => [`if (!${ctx.testFunction(ctx.functionSchema(fn), buildTestBody)}(${value}, ${strict})) return false;`],
    strict,
    test: true,
    relaxed: () => testSink(ctx, 'false'),
  };
}

function buildTestBody(schema: Schema, ctx: EmitContext, scope: Scope): string[] {
  return withoutDeadCode([...emitCheck({ schema, value: 'v', path: [], sink: testSink(ctx, 'strict'), ctx, scope, typeKnown: false }), 'return true;']);
}

/**
 * The predicate of `schema`: for a plain reference, the named schema's own
 * (one function per name); otherwise one for this node.
 */
export function predicateOf(schema: Schema, ctx: EmitContext): string {
  const target = schema.kind === 'ref' && schema.allOf === undefined && schema.not === undefined ? ctx.namedSchema(schema.name).schema : schema;
  return ctx.testFunction(target, buildTestBody);
}

/** Whether a check function for `schema` starts with its predicate: for structures, where records and paths cost. */
function worthFastPath(schema: Schema, ctx: EmitContext): boolean {
  if (schema.allOf !== undefined || schema.not !== undefined) return true;
  const resolved = ctx.resolve(schema);
  return resolved.kind === 'object' || resolved.kind === 'array' || resolved.kind === 'union' || resolved.allOf !== undefined || resolved.not !== undefined;
}

/**
 * The body of a check function `(v, out, all, strict)`: a value its predicate
 * accepts returns at once; otherwise the full check records every failure
 * with its path and message.
 */
export function checkFunctionBody(schema: Schema, ctx: EmitContext, scope: Scope): string[] {
  const check = withoutDeadCode(emitCheck({ schema, value: 'v', path: [], sink: collectSink, ctx, scope, typeKnown: false }));
  if (!worthFastPath(schema, ctx)) return check;
  const test = ctx.testFunction(schema, buildTestBody);
  return [`if (${test}(v, strict)) return;`, ...check];
}
