import { plainShape } from '../../model/parameters.js';
import type { Operation, Schema, UnionSchema } from '../../model/types.js';
import type { Stmt } from './builder.js';
import { commentText, literal } from './code.js';
import { scalarKinds } from './decoders.js';
import { buildTestBody, checkFunctionBody, predicateOf } from './checks/predicate.js';
import { checkUnion } from './checks/union.js';
import { EmitContext, Scope } from './context.js';
import { collectSink } from './sink.js';

/** The emit context of one validators module, with the builders of its check and predicate bodies. */
export function emitContext(model: EmitContext['model']): EmitContext {
  return new EmitContext(model, { check: checkFunctionBody, test: buildTestBody });
}

/** A check function of an operation's own (a response body or header that is not a named schema). */
export interface OwnFunction {
  name: string;
  comment: string;
  body: Stmt[];
}

/**
 * A success body that is only a reference reuses the named schema's function.
 * `test` is the body's predicate, which `validate<Op>Response` calls first so
 * a valid body costs one direct call.
 */
export function responseFunction(operation: Operation, ctx: EmitContext, own: OwnFunction[]): { name: string; test: string } {
  const schema = operation.success.schema;
  const label = `${operation.names.pascal}Response`;
  const named = plainNamed(schema, ctx);
  if (named !== undefined) return { name: ctx.schemaFunction(named), test: predicateOf({ kind: 'ref', name: named }, ctx, label) };
  const name = ctx.names.unique(`check${label}`);
  const body = checkFunctionBody(schema, ctx, new Scope(), label);
  own.push({ name, comment: `Success body of ${commentText(`${operation.method.toUpperCase()} ${ctx.model.basePath}${operation.path}`)}.`, body });
  return { name, test: predicateOf(schema, ctx, label) };
}

/** The name of the schema a body is, when it is one named schema and nothing more: its check function serves. */
function plainNamed(schema: Schema, ctx: EmitContext): string | undefined {
  if (schema.kind === 'ref') return schema.allOf === undefined && schema.not === undefined ? schema.name : undefined;
  return ctx.namedOf(schema)?.name;
}

/** The body of the check function for any error envelope the spec knows, told apart by its `code`. */
export function errorBodyCheck(ctx: EmitContext): Stmt[] {
  const errors = ctx.model.errors;
  const schema: UnionSchema = {
    kind: 'union',
    variants: errors.map((e) => ({ kind: 'ref', name: e.schemaName })),
    discriminator: { propertyName: 'code', mapping: Object.fromEntries(errors.map((e) => [e.code, e.schemaName])) },
  };
  return checkUnion({ schema, value: 'v', path: [], sink: collectSink(ctx), ctx, scope: new Scope(), typeKnown: false, label: 'ErrorBody' });
}

/** One response of an operation's table: its status key and, per media type, the check function (`null`: not JSON). */
export interface ResponseEntry {
  key: string;
  media: { type: string; fn: string | null }[];
}

/** A status key as words of a name: `200`, `2XX` -> `2xx`, `default` -> `Default`. */
function statusWord(key: string): string {
  return key === 'default' ? 'Default' : key.toLowerCase();
}

/**
 * Every declared response of an operation (successes, then errors), each
 * media type with its check: a named schema's function for a reference, the
 * primary success's own function for its first JSON body, else a function
 * of its own (added to `own`).
 */
export function responseTable(operation: Operation, ctx: EmitContext, primary: string, own: OwnFunction[]): ResponseEntry[] {
  return [...operation.successes, ...operation.errors].map((response) => {
    const key = response.statusText ?? String(response.status);
    let firstJson = response === operation.success;
    const media = response.contents.map((content, index) => {
      if (content.kind !== 'json') return { type: content.mediaType, fn: null };
      if (firstJson) {
        firstJson = false;
        return { type: content.mediaType, fn: primary };
      }
      const named = plainNamed(content.schema, ctx);
      if (named !== undefined) return { type: content.mediaType, fn: ctx.schemaFunction(named) };
      const label = `${operation.names.pascal}Response${statusWord(key)}${index === 0 ? '' : `Media${index + 1}`}`;
      const name = ctx.names.unique(`check${label}`);
      own.push({ name, comment: `Body of ${key} ${commentText(content.mediaType)} of ${commentText(operation.id)}.`, body: checkFunctionBody(content.schema, ctx, new Scope(), label) });
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
export function headerTable(operation: Operation, ctx: EmitContext, own: OwnFunction[]): { key: string; headers: string }[] | undefined {
  const responses = [...operation.successes, ...operation.errors].filter((r) => !('synthetic' in r && r.synthetic));
  if (!responses.some((r) => r.headers.length > 0)) return undefined;
  return responses.map((response) => {
    const key = response.statusText ?? String(response.status);
    const entries = response.headers.map((header) => {
      const name = literal(header.name.toLowerCase());
      const shape = plainShape(ctx, header.schema);
      const resolved = ctx.resolve(header.schema);
      if (shape !== 'scalar' && shape !== 'array') return `[${name}, ${header.required}, 0, false, null]`;
      const list = shape === 'array';
      const kinds = list ? (resolved.kind === 'array' && resolved.items !== undefined ? scalarKinds(ctx.resolve(resolved.items), ctx) : ctx.use('SCALAR_STRING')) : scalarKinds(resolved, ctx);
      let fn: string;
      const named = plainNamed(header.schema, ctx);
      if (named !== undefined) {
        fn = ctx.schemaFunction(named);
      } else {
        const label = `${operation.names.pascal}Response${statusWord(key)}Header${header.names.pascal}`;
        fn = ctx.names.unique(`check${label}`);
        own.push({ name: fn, comment: `Header ${commentText(header.name)} of ${key} of ${commentText(operation.id)}.`, body: checkFunctionBody(header.schema, ctx, new Scope(), label) });
      }
      return `[${name}, ${header.required}, ${kinds}, ${list}, ${fn}]`;
    });
    return { key, headers: `[${entries.join(', ')}]` };
  });
}
