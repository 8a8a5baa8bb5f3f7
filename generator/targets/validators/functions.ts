import type { Operation, Schema, UnionSchema } from '../../model/types.js';
import { checkFunctionBody, predicateOf } from './checks/predicate.js';
import { checkUnion } from './checks/union.js';
import { Scope, type EmitContext, type FunctionBuilder } from './context.js';
import { collectSink } from './sink.js';

/** The body of a check function `(v, out, all, strict)`: failures are collected into `out` (a valid value returns at its predicate). */
export const buildCheckBody: FunctionBuilder = (schema: Schema, ctx: EmitContext, scope: Scope) => checkFunctionBody(schema, ctx, scope);

/**
 * A success body that is only a reference reuses the named schema's function.
 * `test` is the body's predicate, which `validate<Op>Response` calls first so
 * a valid body costs one direct call.
 */
export function responseFunction(operation: Operation, ctx: EmitContext): { name: string; body?: string[]; test: string } {
  const schema = operation.success.schema;
  if (schema.kind === 'ref') return { name: ctx.schemaFunction(schema.name), test: predicateOf(schema, ctx) };
  const body = buildCheckBody(schema, ctx, new Scope());
  return { name: `response${operation.names.pascal}`, body, test: predicateOf(schema, ctx) };
}

/** The body of the check function for any error envelope the spec knows, told apart by its `code`. */
export function errorBodyCheck(ctx: EmitContext): string[] {
  const errors = ctx.model.errors;
  const schema: UnionSchema = {
    kind: 'union',
    variants: errors.map((e) => ({ kind: 'ref', name: e.schemaName })),
    discriminator: { propertyName: 'code', mapping: Object.fromEntries(errors.map((e) => [e.code, e.schemaName])) },
  };
  return checkUnion({ schema, value: 'v', path: [], sink: collectSink, ctx, scope: new Scope(), typeKnown: false });
}
