import type { Schema, UnionSchema } from '../../../model/types.js';
import { appendText, ifBlock, indent, isInheritedName, literal, propertySegment } from '../code.js';
import { describe } from '../describe.js';
import { classGuard, emitCheck, guarded, typeClassOf, type CheckArgs, type TypeClass } from './dispatch.js';

/**
 * Unions, in the cheapest form that keeps "first variant that matches":
 * - with a discriminator: a switch on the discriminating property;
 * - variants of distinct JavaScript types (`string | null`, `integer | integer[]`):
 *   a type test picks the only variant that can match, checked inline;
 * - otherwise each variant is tried in order through its own function.
 */
export function checkUnion(args: CheckArgs<UnionSchema>): string[] {
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

function byType(args: CheckArgs<UnionSchema>, classes: TypeClass[]): string[] {
  const { schema, value, sink, path } = args;
  let chain = sink.fail('union', path, unionMessage(args));
  for (let index = schema.variants.length - 1; index >= 0; index--) {
    const variant = schema.variants[index]!;
    const emitted = emitCheck({ ...args, schema: variant, typeKnown: true });
    const check = emitted.length > 0 ? emitted : ['// Every value of this type matches.'];
    chain = ifBlock(classGuard(classes[index]!, value), check, chain);
  }
  return chain;
}

/** The check function of a variant: its named schema's, or one of its own. */
function variantFn(variant: Schema, args: CheckArgs, comment: string): string {
  return variant.kind === 'ref' ? args.ctx.schemaFunction(variant.name) : args.ctx.variantFunction(variant, comment);
}

/**
 * Statements that add 1 to a counter when a value matches `schema`, trying it
 * against the shared scratch stack (what the attempt records is dropped).
 */
export function matchCount(schema: Schema, args: CheckArgs, comment: string): (value: string, counter: string) => string[] {
  const fn = variantFn(schema, args, comment);
  return (value, counter) => {
    const mark = args.scope.next('m');
    return [
      `const ${mark} = scratch.length;`,
      `${fn}(${value}, scratch, false, ${args.sink.strict});`,
      `if (scratch.length === ${mark}) ${counter}++;`,
      `scratch.length = ${mark};`,
    ];
  };
}

function inOrder(args: CheckArgs<UnionSchema>): string[] {
  const { schema, value, sink, path, ctx, scope } = args;
  const fns = schema.variants.map((variant, index) => variantFn(variant, args, `Variant ${index + 1} of ${describe(schema, ctx)}.`));
  // Each variant runs against the shared scratch stack; what it records is dropped again.
  const mark = scope.next('m');
  if (schema.exclusive === true) {
    // `oneOf`: exactly one variant may match; stop counting at two.
    const count = scope.next('u');
    const attempt = (fn: string) => [`${fn}(${value}, scratch, false, ${sink.strict});`, `if (scratch.length === ${mark}) ${count}++;`, `scratch.length = ${mark};`];
    const [first, ...others] = fns;
    const lines = [`const ${mark} = scratch.length;`, `let ${count} = 0;`, ...attempt(first!)];
    for (const fn of others) lines.push(...ifBlock(`${count} < 2`, attempt(fn)));
    lines.push(...ifBlock(`${count} === 0`, sink.fail('union', path, unionMessage(args))));
    lines.push(...ifBlock(`${count} > 1`, sink.fail('oneOf', path, `must match exactly one of ${describe(schema, ctx)}, not several`)));
    return lines;
  }
  const matched = scope.next('u');
  const attempt = (fn: string) => [
    `${fn}(${value}, scratch, false, ${sink.strict});`,
    `${matched} = scratch.length === ${mark};`,
    `scratch.length = ${mark};`,
  ];
  const [first, ...others] = fns;
  const lines = [`const ${mark} = scratch.length;`, `let ${matched} = false;`, ...attempt(first!)];
  for (const fn of others) lines.push(...ifBlock(`!${matched}`, attempt(fn)));
  lines.push(...ifBlock(`!${matched}`, sink.fail('union', path, unionMessage(args))));
  return lines;
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

function discriminated(args: CheckArgs<UnionSchema>, propertyName: string, cases: [string, Schema][]): string[] {
  const { value, sink, path, scope } = args;
  const record = scope.next('o');
  const tag = scope.next('d');
  const key = literal(propertyName);
  const read = isInheritedName(propertyName)
    ? `Object.hasOwn(${record}, ${key}) ? ${record}[${key}] : undefined`
    : `${record}[${key}]`;
  const body = [`const ${record} = ${value} as Record<string, unknown>;`, `const ${tag} = ${read};`, `switch (${tag}) {`];
  for (const [tagValue, variant] of cases) {
    body.push(`  case ${literal(tagValue)}: {`, ...indent(emitCheck({ ...args, schema: variant, typeKnown: true }), 2), '    break;', '  }');
  }
  const allowed = cases.map(([t]) => literal(t)).join(', ');
  body.push(
    '  default: {',
    ...indent(sink.fail('discriminator', appendText(path, propertySegment(propertyName)), `must be one of ${allowed}`), 2),
    '  }',
    '}',
  );
  return guarded(args, classGuard('object', value), undefined, 'an object', body);
}
