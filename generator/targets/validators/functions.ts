import { plainShape } from '../../model/parameters.js';
import type { Operation, Schema, UnionSchema } from '../../model/types.js';
import { literal } from './code.js';
import { scalarKinds } from './decoders.js';
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
      // `_` keeps the status apart from the operation's name, which may end in `Default` or digits itself.
      const name = `response${operation.names.pascal}_${key}${index === 0 ? '' : `_${index + 1}`}`;
      extra.push({ name, comment: `Body of ${key} ${content.mediaType} of ${operation.id}.`, body: buildCheckBody(content.schema, ctx, new Scope()) });
      return { type: content.mediaType, fn: name };
    });
    return { key, media };
  });
}

/**
 * The declared headers of every response of an operation, as the entries of
 * its header table (status key, then `[name, required, kinds, list, check]`
 * per header); undefined when no response declares a header. A header whose
 * schema is a scalar or a list of scalars (`simple` style) is read and
 * checked; any other is checked for presence only.
 */
export function headerTable(operation: Operation, ctx: EmitContext, extra: { name: string; comment: string; body: string[] }[]): { key: string; headers: string }[] | undefined {
  const responses = [...operation.successes, ...operation.errors].filter((r) => !('synthetic' in r && r.synthetic));
  if (!responses.some((r) => r.headers.length > 0)) return undefined;
  return responses.map((response) => {
    const key = response.statusText ?? String(response.status);
    const entries = response.headers.map((header, index) => {
      const name = literal(header.name.toLowerCase());
      const shape = plainShape(ctx, header.schema);
      const resolved = ctx.resolve(header.schema);
      if (shape !== 'scalar' && shape !== 'array') return `[${name}, ${header.required}, 0, false, null]`;
      const list = shape === 'array';
      const kinds = list ? (resolved.kind === 'array' && resolved.items !== undefined ? scalarKinds(ctx.resolve(resolved.items), ctx) : 'SCALAR_STRING') : scalarKinds(resolved, ctx);
      let fn: string;
      if (header.schema.kind === 'ref') {
        fn = ctx.schemaFunction(header.schema.name);
      } else {
        fn = `header${operation.names.pascal}${key === 'default' ? 'Default' : key}_${index + 1}`;
        extra.push({ name: fn, comment: `Header ${header.name} of ${key} of ${operation.id}.`, body: buildCheckBody(header.schema, ctx, new Scope()) });
      }
      return `[${name}, ${header.required}, ${kinds}, ${list}, ${fn}]`;
    });
    return { key, headers: `[${entries.join(', ')}]` };
  });
}
