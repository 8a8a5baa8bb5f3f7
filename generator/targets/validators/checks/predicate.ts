import type { Schema } from '../../../model/types.js';
import { ifBlock, ret, type Stmt } from '../builder.js';
import type { EmitContext, Scope } from '../context.js';
import { collectSink, testSink } from '../sink.js';
import { emitCheck } from './dispatch.js';

/** The body of a predicate `(v, strict) => boolean` for `schema`: its checks with a sink whose failure is `return false;`. */
export function buildTestBody(schema: Schema, ctx: EmitContext, scope: Scope, label: string): Stmt[] {
  return [...emitCheck({ schema, value: 'v', path: [], sink: testSink(ctx), ctx, scope, typeKnown: false, label }), ret('true')];
}

/**
 * The predicate of `schema`: for a plain reference, the named schema's own
 * (one function per name); otherwise one for this node, named after `label`.
 */
export function predicateOf(schema: Schema, ctx: EmitContext, label: string): string {
  if (schema.kind === 'ref' && schema.allOf === undefined && schema.not === undefined) {
    const named = ctx.namedSchema(schema.name);
    return ctx.testFunction(named.schema, named.names.pascal);
  }
  return ctx.testFunction(schema, label);
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
export function checkFunctionBody(schema: Schema, ctx: EmitContext, scope: Scope, label: string): Stmt[] {
  const check = emitCheck({ schema, value: 'v', path: [], sink: collectSink(ctx), ctx, scope, typeKnown: false, label });
  if (!worthFastPath(schema, ctx)) return check;
  return [...ifBlock(`${ctx.testFunction(schema, label)}(v, strict)`, [{ kind: 'return' }]), ...check];
}
