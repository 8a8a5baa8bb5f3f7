import { pascalName } from '../../../model/names.js';
import type { Schema, UnionSchema } from '../../../model/types.js';
import { block, ifBlock, type Stmt } from '../builder.js';
import { appendText, isInheritedName, literal, propertySegment } from '../code.js';
import { partLocal } from '../context.js';
import { describe } from '../describe.js';
import { classGuard, emitCheck, guarded, typeClassOf, type CheckArgs, type TypeClass } from './dispatch.js';
import { predicateOf } from './predicate.js';

/**
 * Unions, in the cheapest form that keeps "first variant that matches":
 * - with a discriminator: a switch on the discriminating property;
 * - variants of distinct JavaScript types (`string | null`, `integer | integer[]`):
 *   a type test picks the only variant that can match, checked inline;
 * - otherwise each variant is tried in order through its predicate function.
 */
export function checkUnion(args: CheckArgs<UnionSchema>): Stmt[] {
  const { schema, ctx } = args;
  if (schema.discriminator !== undefined) {
    const cases = discriminatorCases(schema);
    if (cases !== undefined) return discriminated(args, schema.discriminator.propertyName, cases);
  }
  const classes = schema.variants.map((v) => typeClassOf(v, ctx));
  if (classes.every((c) => c !== undefined) && new Set(classes).size === classes.length) {
    return byType(args, classes as TypeClass[]);
  }
  return inOrder(args);
}

function unionMessage(args: CheckArgs<UnionSchema>): string {
  return `must be ${describe(args.schema, args.ctx)}`;
}

function byType(args: CheckArgs<UnionSchema>, classes: TypeClass[]): Stmt[] {
  const { schema, value, sink, path, known } = args;
  let chain = sink.fail('union', path, unionMessage(args));
  // A class already established leaves one variant at most: no branches for other classes, which
  // TypeScript would see as testing a value of type `never`. (A collecting validator that goes on after
  // a failed type test has not narrowed the value, hence the test of the one class.)
  if (known !== undefined && known.value === value) {
    const index = classes.indexOf(known.typeClass);
    if (index < 0) return chain;
    const check = emitCheck({ ...args, schema: schema.variants[index]!, typeKnown: true, label: variantLabel(args, index) });
    return check.length === 0 ? [] : ifBlock(classGuard(known.typeClass, value).test, check);
  }
  for (let index = schema.variants.length - 1; index >= 0; index--) {
    const variant = schema.variants[index]!;
    const emitted = emitCheck({ ...args, schema: variant, typeKnown: true, label: variantLabel(args, index) });
    const check = emitted.length > 0 ? emitted : ['// Every value of this type matches.'];
    chain = ifBlock(classGuard(classes[index]!, value).test, check, chain);
  }
  return chain;
}

/**
 * Statements that add 1 to a counter when a value matches `schema`, through
 * the schema's predicate function (nothing is recorded either way).
 */
export function matchCount(schema: Schema, args: CheckArgs): (value: string, counter: string) => Stmt[] {
  const test = predicateOf(schema, args.ctx, args.label);
  return (value, counter) => [`if (${test}(${value}, ${args.sink.strict})) ${counter}++;`];
}

/**
 * Variants tried in order through their predicates: `anyOf` stops at the
 * first match, `oneOf` at the second.
 */
function inOrder(args: CheckArgs<UnionSchema>): Stmt[] {
  const { schema, value, sink, path, ctx, scope } = args;
  const calls = schema.variants.map((variant, index) => `${predicateOf(variant, ctx, variantLabel(args, index))}(${value}, ${sink.strict})`);
  if (schema.exclusive === true) {
    const count = partLocal(scope, value, 'matched');
    const [first, ...others] = calls;
    const lines: Stmt[] = [`let ${count} = ${first!} ? 1 : 0;`];
    for (const call of others) lines.push(`if (${count} < 2 && ${call}) ${count}++;`);
    lines.push(...ifBlock(`${count} === 0`, sink.fail('union', path, unionMessage(args))));
    lines.push(...ifBlock(`${count} > 1`, sink.fail('oneOf', path, `must match exactly one of ${describe(schema, ctx)}, not several`)));
    return lines;
  }
  const test = calls.length === 1 ? `!${calls[0]!}` : `!(${calls.join(' || ')})`;
  return ifBlock(test, sink.fail('union', path, unionMessage(args)));
}

/** Discriminator value to variant, or undefined when the mapping names no variant. */
function discriminatorCases(schema: UnionSchema): [string, Schema][] | undefined {
  const { discriminator } = schema;
  if (discriminator === undefined) return undefined;
  const cases: [string, Schema][] = [];
  for (const [tag, target] of Object.entries(discriminator.mapping).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const targetName = target.slice(target.lastIndexOf('/') + 1).replace(/\.yaml$/, '');
    const variant = schema.variants.find((v) => (v.kind === 'ref' ? v.name : v.refName) === targetName);
    if (variant === undefined) return undefined;
    cases.push([tag, variant]);
  }
  return cases.length > 0 ? cases : undefined;
}

function discriminated(args: CheckArgs<UnionSchema>, propertyName: string, cases: [string, Schema][]): Stmt[] {
  const { value, sink, path, scope } = args;
  const record = partLocal(scope, value, 'record');
  const tag = partLocal(scope, value, propertyName);
  const key = literal(propertyName);
  const read = isInheritedName(propertyName)
    ? `Object.hasOwn(${record}, ${key}) ? ${record}[${key}] : undefined`
    : `${record}[${key}]`;
  const branches: Stmt[] = cases.map(([tagValue, variant], index) =>
    block(`case ${literal(tagValue)}:`, [...emitCheck({ ...args, scope: args.scope.child(), schema: variant, typeKnown: true, label: variantLabel(args, schemaIndex(args.schema, variant) ?? index) }), 'break;'], 'switch'),
  );
  const allowed = cases.map(([t]) => literal(t)).join(', ');
  branches.push(block('default:', sink.fail('discriminator', appendText(path, propertySegment(propertyName)), `must be one of ${allowed}`), 'switch'));
  const body: Stmt[] = [`const ${record} = ${value} as Record<string, unknown>;`, `const ${tag} = ${read};`, block(`switch (${tag})`, branches, 'switch')];
  return guarded(args, classGuard('object', value), undefined, 'an object', body);
}

/** The label of a union's variant: the variant's schema name when it has one, else its position. */
function variantLabel(args: CheckArgs<UnionSchema>, index: number): string {
  const variant = args.schema.variants[index];
  const named = variant === undefined ? undefined : variant.kind === 'ref' ? variant.name : variant.refName;
  return named !== undefined ? `${args.label}${pascalName(named)}` : `${args.label}Option${index + 1}`;
}

function schemaIndex(union: UnionSchema, variant: Schema): number | undefined {
  const index = union.variants.indexOf(variant);
  return index < 0 ? undefined : index;
}
