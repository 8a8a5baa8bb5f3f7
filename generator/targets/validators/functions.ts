import type { Operation, Schema, UnionSchema } from '../../model/types.js';
import { emitCheck } from './checks/dispatch.js';
import { checkUnion } from './checks/union.js';
import { Scope, type EmitContext, type FunctionBuilder } from './context.js';
import { collectSink } from './sink.js';

/** The body of a check function `(v, out, all, strict)`: failures are collected into `out`. */
export const buildCheckBody: FunctionBuilder = (schema: Schema, ctx: EmitContext, scope: Scope) =>
  emitCheck({ schema, value: 'v', path: [], sink: collectSink, ctx, scope, typeKnown: false });

/** A success body that is only a reference reuses the named schema's function. */
export function responseFunction(operation: Operation, ctx: EmitContext): { name: string; body?: string[] } {
  const schema = operation.success.schema;
  if (schema.kind === 'ref') return { name: ctx.schemaFunction(schema.name) };
  return { name: `response${operation.names.pascal}`, body: buildCheckBody(schema, ctx, new Scope()) };
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
