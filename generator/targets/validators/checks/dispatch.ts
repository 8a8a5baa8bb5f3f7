import type { Schema } from '../../../model/types.js';
import { guard, ifBlock, type Guard, type Stmt } from '../builder.js';
import type { PathPart } from '../code.js';
import { partLocal, type EmitContext, type Scope } from '../context.js';
import type { Sink } from '../sink.js';
import { checkAny } from './any.js';
import { checkArray } from './array.js';
import { checkBoolean } from './boolean.js';
import { checkInteger, checkNumber } from './number.js';
import { checkNull } from './null.js';
import { checkObject } from './object.js';
import { checkRef } from './ref.js';
import { checkString } from './string.js';
import { checkUnion, matchCount } from './union.js';
import { describe } from '../describe.js';

export interface CheckArgs<S extends Schema = Schema> {
  schema: S;
  /** An identifier holding the value to check. */
  value: string;
  path: PathPart[];
  sink: Sink;
  ctx: EmitContext;
  scope: Scope;
  /** What the value is, in PascalCase words (`OwnUser`, `OwnUserProfileData`): module-level names made for it start so. */
  label: string;
  /**
   * What enclosing code already established: `true` the value's JavaScript
   * type class (`typeof`), `'exact'` its full type (e.g. a decoded integer).
   */
  typeKnown: boolean | 'exact';
  /**
   * The JavaScript type class enclosing code established for `value` (the
   * schema's own type, for its `allOf` members): union branches of other
   * classes are dead code, where TypeScript narrows the value to `never`.
   */
  known?: { value: string; typeClass: TypeClass };
}

/**
 * Statements that check `args.value` against `args.schema`: only the keywords
 * present, then the schema's extra `allOf` members and its `not`.
 */
export function emitCheck(args: CheckArgs): Stmt[] {
  if (args.sink.kind === 'test') {
    // A predicate calls the shape's predicate alone: no check function is made for it.
    const predicate = args.ctx.sharedPredicate(args.schema, args.label);
    if (predicate !== undefined) return [`if (!${predicate}(${args.value}, ${args.sink.strict})) return false;`];
  } else {
    const shared = args.ctx.sharedFunction(args.schema, args.label);
    if (shared !== undefined) return args.sink.call(shared, args.value, args.path, args.scope);
  }
  const own = emitOwn(args);
  const { schema } = args;
  if (schema.allOf === undefined && schema.not === undefined) return own;
  const lines = [...own];
  const ownClass = schema.kind === 'ref' || schema.kind === 'union' ? undefined : typeClassOf(schema, args.ctx);
  const known = ownClass === undefined ? args.known : { value: args.value, typeClass: ownClass };
  for (const member of schema.allOf ?? []) lines.push(...emitCheck({ ...args, schema: member, typeKnown: false, sink: args.sink.relaxed(), known }));
  if (schema.not !== undefined) {
    const count = partLocal(args.scope, args.value, 'matched');
    const attempt = matchCount(schema.not, { ...args, label: `${args.label}Not` });
    lines.push(`let ${count} = 0;`, ...attempt(args.value, count), ...ifBlock(`${count} !== 0`, args.sink.fail('not', args.path, `must not be ${describe(schema.not, args.ctx)}`)));
  }
  return lines;
}

function emitOwn(args: CheckArgs): Stmt[] {
  const { schema } = args;
  switch (schema.kind) {
    case 'string':
      return checkString({ ...args, schema });
    case 'integer':
      return checkInteger({ ...args, schema });
    case 'number':
      return checkNumber({ ...args, schema });
    case 'boolean':
      return checkBoolean({ ...args, schema });
    case 'null':
      return checkNull({ ...args, schema });
    case 'array':
      return checkArray({ ...args, schema });
    case 'object':
      return checkObject({ ...args, schema });
    case 'union':
      return checkUnion({ ...args, schema });
    case 'ref':
      return checkRef({ ...args, schema });
    case 'any':
      return checkAny({ ...args, schema });
    case 'never':
      return args.sink.fail('false', args.path, 'is not allowed');
  }
}

/** JavaScript type classes that a `typeof`-style guard tells apart. */
export type TypeClass = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

export function typeClassOf(schema: Schema, ctx: EmitContext): TypeClass | undefined {
  const resolved = ctx.resolve(schema);
  // Values of any class may match a schema whose type was only inferred.
  if (resolved.implied === true) return undefined;
  switch (resolved.kind) {
    case 'integer':
    case 'number':
      return 'number';
    case 'string':
    case 'boolean':
    case 'null':
    case 'array':
    case 'object':
      return resolved.kind;
    default:
      return undefined;
  }
}

export function classGuard(typeClass: TypeClass, value: string): Guard {
  switch (typeClass) {
    case 'null':
      return guard(`${value} === null`, `${value} !== null`);
    case 'array':
      return guard(`Array.isArray(${value})`, `!Array.isArray(${value})`);
    case 'object':
      return guard(`typeof ${value} === "object" && ${value} !== null && !Array.isArray(${value})`);
    default:
      return guard(`typeof ${value} === "${typeClass}"`, `typeof ${value} !== "${typeClass}"`);
  }
}

/**
 * The type check, then `rest` (keyword checks) once the type holds. `guard`
 * is the full type test; `knownGuard` what remains of it when the class is
 * already known (e.g. `Number.isInteger(v)` for integers), if anything.
 */
export function guarded(args: CheckArgs, full: Guard, knownGuard: Guard | undefined, noun: string, rest: Stmt[]): Stmt[] {
  const test = args.typeKnown === 'exact' ? undefined : args.typeKnown ? knownGuard : full;
  if (test === undefined) return rest;
  // An inferred type constrains only values of that type (JSON Schema); others pass.
  if (args.schema.implied === true) return rest.length === 0 ? [] : ifBlock(test.test, rest);
  const failure = args.sink.fail('type', args.path, `must be ${noun}`);
  return ifBlock(test.negated, failure, rest);
}
