import type { ObjectSchema, Property, Schema } from '../../../model/types.js';
import type { EmitContext, Scope } from '../context.js';
import { appendExpr, appendText, ifBlock, indent, isInheritedName, literal, propertySegment, withoutDeadCode } from '../code.js';
import { KIND_NOUN } from '../describe.js';
import { enumMiss, patternTest } from './constants.js';
import { emitCheck, guarded, typeClassOf, type CheckArgs } from './dispatch.js';

/**
 * Property checks of one object longer than this many lines go to helper
 * functions of about this size: TypeScript stops analysing a function whose
 * straight-line code is too long (TS2563), as with an object of several
 * hundred properties (DocuSign's account settings).
 */
const CHUNK_LINES = 1500;

export function checkObject(args: CheckArgs<ObjectSchema>): string[] {
  const { schema, value, sink, path, scope, ctx } = args;
  const record = scope.next('o');
  const rest: string[] = [`const ${record} = ${value} as Record<string, unknown>;`];
  rest.push(...propertyChecks(args, record, scope));
  return objectRest(args, record, rest);
}

/**
 * The property checks of `args.schema`, inline; when they run long (and the
 * sink and path allow it), split into helper functions taking the record,
 * each called in turn.
 */
function propertyChecks(args: CheckArgs<ObjectSchema>, record: string, scope: Scope): string[] {
  const { schema, sink, path, ctx } = args;
  const perProperty = schema.properties.map((property) => checksOf(args, [property], record, scope));
  const total = perProperty.reduce((sum, lines) => sum + lines.length, 0);
  const collect = sink.test !== true && sink.fail('x', [], '').some((line) => line.startsWith('out.push('));
  const splittable = (sink.test === true || collect) && path.every((part) => 'text' in part);
  if (total <= CHUNK_LINES || !splittable) return perProperty.flat();
  // Chunks of about CHUNK_LINES lines; a helper's parameters carry the names the lines use (the record, out, all, strict).
  const groups: string[][] = [[]];
  for (const lines of perProperty) {
    const last = groups[groups.length - 1]!;
    if (last.length > 0 && last.length + lines.length > CHUNK_LINES) groups.push([...lines]);
    else last.push(...lines);
  }
  return groups.flatMap((lines) => {
    if (sink.test === true) {
      const name = ctx.chunkFunction(`(${record}: Record<string, unknown>, strict: boolean): boolean`, withoutDeadCode([...lines, 'return true;']));
      return [`if (!${name}(${record}, strict)) return false;`];
    }
    // Collecting: where the check stops (a bare return), the helper returns true, and so does its caller.
    const body = [...lines.map((line) => line.replace(/\breturn;/g, 'return true;')), 'return false;'];
    const name = ctx.chunkFunction(`(${record}: Record<string, unknown>, out: Failure[], all: boolean, strict: boolean): boolean`, withoutDeadCode(body));
    return [`if (${name}(${record}, out, all, strict)) return;`];
  });
}

function checksOf(args: CheckArgs<ObjectSchema>, properties: readonly Property[], record: string, scope: Scope): string[] {
  const { sink, path, ctx } = args;
  const rest: string[] = [];
  for (const property of properties) {
    const key = literal(property.name);
    const propertyPath = appendText(path, propertySegment(property.name));
    const element = scope.next('x');
    const check = emitCheck({ ...args, scope, schema: property.schema, value: element, path: propertyPath, typeKnown: false });
    if (!property.required && check.length === 0) continue;
    // Names like `constructor` would otherwise be found on Object.prototype.
    const read = isInheritedName(property.name)
      ? `Object.hasOwn(${record}, ${key}) ? ${record}[${key}] : undefined`
      : `${record}[${key}]`;
    rest.push(`const ${element} = ${read};`);
    if (property.required && sink.test === true && typeClassOf(property.schema, ctx) !== undefined) {
      // A predicate needs no "is required" of its own: the type test rejects `undefined` as well.
      rest.push(...check);
    } else if (property.required) {
      rest.push(...ifBlock(`${element} === undefined`, sink.fail('required', propertyPath, 'is required'), check));
    } else {
      rest.push(...ifBlock(`${element} !== undefined`, check));
    }
  }
  return rest;
}

function objectRest(args: CheckArgs<ObjectSchema>, record: string, rest: string[]): string[] {
  const { schema, value, sink, path, scope, ctx } = args;

  if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
    const count = scope.next('n');
    rest.push(`const ${count} = Object.keys(${record}).length;`);
    if (schema.minProperties !== undefined) {
      rest.push(...ifBlock(`${count} < ${schema.minProperties}`, sink.fail('minProperties', path, `must have at least ${schema.minProperties} propert${schema.minProperties === 1 ? 'y' : 'ies'}`)));
    }
    if (schema.maxProperties !== undefined) {
      rest.push(...ifBlock(`${count} > ${schema.maxProperties}`, sink.fail('maxProperties', path, `must have at most ${schema.maxProperties} propert${schema.maxProperties === 1 ? 'y' : 'ies'}`)));
    }
  }
  rest.push(...extraKeys(record));
  return guarded(
    args,
    `typeof ${value} === "object" && ${value} !== null && !Array.isArray(${value})`,
    undefined,
    KIND_NOUN.object,
    rest.length === 1 ? [] : rest,
  );

  /** Checks on keys the schema does not list: `patternProperties`, `additionalProperties`, `propertyNames`, strict mode. */
  function extraKeys(obj: string): string[] {
    const extra = schema.additionalProperties;
    // Keys the extra `allOf` members (a union of objects beside this one) know are known in strict mode too.
    const memberKeys = extra === true ? keysOf(schema.allOf ?? [], ctx) : [];
    const knownNames = [...new Set([...schema.properties.map((p) => p.name), ...memberKeys])];
    const listed = schema.properties.length > 0;
    const patterns = schema.patternProperties ?? [];
    // A free-form object (nothing listed, anything allowed) has no unknown keys, even in strict mode.
    const strictOnly = extra === true && (listed || patterns.length > 0) && sink.strict !== 'false';
    const pattern = schema.propertyNamesPattern;
    const names = schema.propertyNames;
    if (extra === true && !strictOnly && pattern === undefined && names === undefined && patterns.length === 0) return [];
    // Without anything else to check, the strict-mode loop is skipped entirely in the default (open) mode.
    const loopOnlyWhenStrict = strictOnly && pattern === undefined && names === undefined && patterns.length === 0;

    const key = scope.next('k');
    const keyPath = appendExpr(path, `keySegment(${key})`);
    const body: string[] = [];
    if (pattern !== undefined) {
      body.push(
        ...ifBlock(
          `!${patternTest(pattern, key, ctx)}`,
          sink.fail('propertyNames', keyPath, `name must match the pattern ${literal(pattern)}`),
        ),
      );
    }
    if (names !== undefined) body.push(...emitCheck({ ...args, schema: names, value: key, path: keyPath, typeKnown: true }));
    // Keys matching a pattern: their values are checked, and they are not "additional".
    let matched: string | undefined;
    if (patterns.length > 0) {
      matched = scope.next('p');
      body.push(`let ${matched} = false;`);
      for (const entry of patterns) {
        const element = scope.next('x');
        const check = emitCheck({ ...args, schema: entry.schema, value: element, path: keyPath, typeKnown: false });
        body.push(...ifBlock(patternTest(entry.pattern, key, ctx), [`${matched} = true;`, ...(check.length > 0 ? [`const ${element} = ${obj}[${key}];`, ...check] : [])]));
      }
    }
    const unlisted: string[] = [];
    if (extra === false) {
      unlisted.push(...sink.fail('additionalProperties', keyPath, 'is not allowed'));
    } else if (extra === true) {
      const failure = sink.fail('strict', keyPath, 'is not a known property');
      if (loopOnlyWhenStrict) unlisted.push(...failure);
      else if (strictOnly) unlisted.push(...ifBlock(sink.strict, failure));
    } else {
      const element = scope.next('x');
      const check = emitCheck({ ...args, schema: extra, value: element, path: keyPath, typeKnown: false });
      if (check.length > 0) unlisted.push(`const ${element} = ${obj}[${key}];`, ...check);
    }
    if (unlisted.length > 0) {
      const conditions: string[] = [];
      if (listed) conditions.push(enumMiss(key, extra === true ? knownNames : schema.properties.map((p) => p.name), ctx, 'KEYS'));
      if (matched !== undefined) conditions.push(`!${matched}`);
      body.push(...(conditions.length > 0 ? ifBlock(conditions.join(' && '), unlisted) : unlisted));
    }
    if (body.length === 0) return [];
    // Own enumerable keys, as JSON.stringify writes them and as minProperties counts them (decision 0019).
    // Indexed, not for...of: a smaller function that V8 still inlines into its callers.
    const keys = scope.next('ks');
    const index = scope.next('j');
    const loop = [
      `const ${keys} = Object.keys(${obj});`,
      `for (let ${index} = 0; ${index} < ${keys}.length; ${index}++) {`,
      ...indent([`const ${key} = ${keys}[${index}]!;`, ...body]),
      '}',
    ];
    return loopOnlyWhenStrict ? ifBlock(sink.strict, loop) : loop;
  }
}

/** Property names of object schemas among `schemas` (through refs, unions and their extras). */
function keysOf(schemas: Schema[], ctx: EmitContext, seen = new Set<Schema>()): string[] {
  const names: string[] = [];
  for (const schema of schemas) {
    const resolved = ctx.resolve(schema);
    if (seen.has(resolved)) continue;
    seen.add(resolved);
    if (resolved.kind === 'object') names.push(...resolved.properties.map((p) => p.name));
    if (resolved.kind === 'union') names.push(...keysOf(resolved.variants, ctx, seen));
    names.push(...keysOf(resolved.allOf ?? [], ctx, seen));
  }
  return names;
}
