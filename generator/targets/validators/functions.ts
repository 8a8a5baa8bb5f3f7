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

/** One response of an operation's table: its status key and, per media type, the check function (`null`: not JSON). */
export interface ResponseEntry {
  key: string;
  media: { type: string; fn: string | null }[];
}

/**
 * Every declared response of an operation (successes, then errors), each
 * media type with its check: a named schema's function for a reference, the
 * primary success's own function for its first JSON body, else a function
 * of its own (added to `extra`).
 */
export function responseTable(
  operation: Operation,
  ctx: EmitContext,
  primary: string,
  extra: { name: string; comment: string; body: string[] }[],
): ResponseEntry[] {
  return [...operation.successes, ...operation.errors].map((response) => {
    const key = response.statusText ?? String(response.status);
    let firstJson = response === operation.success;
    const media = response.contents.map((content, index) => {
      if (content.kind !== 'json') return { type: content.mediaType, fn: null };
      if (firstJson) {
        firstJson = false;
        return { type: content.mediaType, fn: primary };
      }
      if (content.schema.kind === 'ref') return { type: content.mediaType, fn: ctx.schemaFunction(content.schema.name) };
      const name = `response${operation.names.pascal}${key === 'default' ? 'Default' : key}${index === 0 ? '' : `_${index + 1}`}`;
      extra.push({ name, comment: `Body of ${key} ${content.mediaType} of ${operation.id}.`, body: buildCheckBody(content.schema, ctx, new Scope()) });
      return { type: content.mediaType, fn: name };
    });
    return { key, media };
  });
}
