import type { ObjectSchema, Property, Schema } from '../../../model/types.js';
import { EXIT, block, ifBlock, ret, type Stmt } from '../builder.js';
import { partLocal, type EmitContext, type Scope } from '../context.js';
import { appendKey, appendText, isInheritedName, literal, propertySegment } from '../code.js';
import { KIND_NOUN } from '../describe.js';
import { enumMiss, knownValues, patternTest } from './constants.js';
import { classGuard, emitCheck, guarded, typeClassOf, type CheckArgs } from './dispatch.js';

/**
 * Property checks of one object longer than this many lines go to helper
 * functions of about this size: TypeScript stops analysing a function whose
 * straight-line code is too long (TS2563), as with an object of several
 * hundred properties (DocuSign's account settings).
 */
const CHUNK_LINES = 1500;

export function checkObject(args: CheckArgs<ObjectSchema>): Stmt[] {
  const { value, scope } = args;
  const record = partLocal(scope, value, 'record');
  const rest: Stmt[] = [`const ${record} = ${value} as Record<string, unknown>;`];
  rest.push(...propertyChecks(args, record, scope));
  return objectRest(args, record, rest);
}

/**
 * The property checks of `args.schema`, inline; when they run long (and the
 * sink and path allow it), split into helper functions taking the record,
 * each called in turn.
 */
function propertyChecks(args: CheckArgs<ObjectSchema>, record: string, scope: Scope): Stmt[] {
  const { schema, sink, path, ctx, label } = args;
  const perProperty = schema.properties.map((property) => checksOf(args, [property], record, scope));
  const total = perProperty.reduce((sum, stmts) => sum + size(stmts), 0);
  const splittable = sink.kind !== 'decode' && path.every((part) => 'text' in part);
  if (total <= CHUNK_LINES || !splittable) return perProperty.flat();
  // Parts of about CHUNK_LINES lines; a part's parameters carry the names the statements use (the record, out, all, strict).
  const groups: Stmt[][] = [[]];
  let lines = 0;
  for (const stmts of perProperty) {
    const last = groups[groups.length - 1]!;
    const n = size(stmts);
    if (last.length > 0 && lines + n > CHUNK_LINES) {
      groups.push([...stmts]);
      lines = n;
    } else {
      last.push(...stmts);
      lines += n;
    }
  }
  return groups.flatMap((stmts, index) => {
    const base = `${sink.kind === 'test' ? 'matches' : 'check'}${label}Part${index + 1}`;
    if (sink.kind === 'test') {
      const name = ctx.partFunction(base, [[record, 'Record<string, unknown>'], ['strict', 'boolean']], 'boolean', [...stmts, ret('true')], 'return true;');
      return [`if (!${name}(${record}, strict)) return false;`];
    }
    // Collecting: where the check stops, the part returns true, and so does its caller.
    const name = ctx.partFunction(base, [[record, 'Record<string, unknown>'], ['out', 'Failure[]'], ['all', 'boolean'], ['strict', 'boolean']], 'boolean', [...stmts, ret('false')], 'return true;');
    return ifBlock(`${name}(${record}, out, all, strict)`, [EXIT]);
  });
}

/** About how many lines statements print as. */
function size(stmts: readonly Stmt[]): number {
  let n = 0;
  for (const stmt of stmts) {
    if (typeof stmt === 'string' || stmt.kind === 'return' || stmt.kind === 'exit') n += 1;
    else if (stmt.kind === 'if') n += 2 + size(stmt.then) + (stmt.else.length === 0 ? 0 : 1 + size(stmt.else));
    else n += 2 + size(stmt.body);
  }
  return n;
}

function checksOf(args: CheckArgs<ObjectSchema>, properties: readonly Property[], record: string, scope: Scope): Stmt[] {
  const { sink, path, ctx, value, label } = args;
  const rest: Stmt[] = [];
  for (const property of properties) {
    const key = literal(property.name);
    const propertyPath = appendText(path, propertySegment(property.name));
    const element = partLocal(scope, value, property.name);
    const check = emitCheck({ ...args, scope, schema: property.schema, value: element, path: propertyPath, typeKnown: false, label: `${label}${property.names.pascal}` });
    if (!property.required && check.length === 0) continue;
    // Names like `constructor` would otherwise be found on Object.prototype.
    const read = isInheritedName(property.name)
      ? `Object.hasOwn(${record}, ${key}) ? ${record}[${key}] : undefined`
      : `${record}[${key}]`;
    rest.push(`const ${element} = ${read};`);
    if (property.required && sink.kind === 'test' && typeClassOf(property.schema, ctx) !== undefined) {
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

function objectRest(args: CheckArgs<ObjectSchema>, record: string, rest: Stmt[]): Stmt[] {
  const { schema, value, sink, path, scope, ctx, label } = args;

  if (schema.minProperties !== undefined || schema.maxProperties !== undefined) {
    const count = partLocal(scope, value, 'count');
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
    classGuard('object', value),
    undefined,
    KIND_NOUN.object,
    rest.length === 1 ? [] : rest,
  );

  /** Checks on keys the schema does not list: `patternProperties`, `additionalProperties`, `propertyNames`, strict mode. */
  function extraKeys(obj: string): Stmt[] {
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
    const helper = loopOnlyWhenStrict ? sink.unknownKeys?.(obj, knownValues(knownNames, ctx, `${label}Keys`), path) : undefined;
    if (helper !== undefined) return helper;

    const key = partLocal(scope, value, 'key');
    const keyPath = appendKey(path, key);
    const body: Stmt[] = [];
    if (pattern !== undefined) {
      body.push(
        ...ifBlock(
          `!${patternTest(pattern, key, ctx, `${label}KeyPattern`)}`,
          sink.fail('propertyNames', keyPath, `name must match the pattern ${literal(pattern)}`),
        ),
      );
    }
    if (names !== undefined) body.push(...emitCheck({ ...args, schema: names, value: key, path: keyPath, typeKnown: true, label: `${label}Key` }));
    // Keys matching a pattern: their values are checked, and they are not "additional".
    let matched: string | undefined;
    if (patterns.length > 0) {
      matched = partLocal(scope, value, 'matched');
      body.push(`let ${matched} = false;`);
      patterns.forEach((entry, index) => {
        const element = partLocal(scope, value, 'entry');
        const entryLabel = `${label}Pattern${index + 1}`;
        const check = emitCheck({ ...args, schema: entry.schema, value: element, path: keyPath, typeKnown: false, label: entryLabel });
        body.push(...ifBlock(patternTest(entry.pattern, key, ctx, `${entryLabel}Key`), [`${matched} = true;`, ...(check.length > 0 ? [`const ${element} = ${obj}[${key}];`, ...check] : [])]));
      });
    }
    const unlisted: Stmt[] = [];
    if (extra === false) {
      unlisted.push(...sink.fail('additionalProperties', keyPath, 'is not allowed'));
    } else if (extra === true) {
      const failure = sink.fail('strict', keyPath, 'is not a known property');
      if (loopOnlyWhenStrict) unlisted.push(...failure);
      else if (strictOnly) unlisted.push(...ifBlock(sink.strict, failure));
    } else {
      const element = partLocal(scope, value, 'entry');
      const check = emitCheck({ ...args, schema: extra, value: element, path: keyPath, typeKnown: false, label: `${label}Value` });
      if (check.length > 0) unlisted.push(`const ${element} = ${obj}[${key}];`, ...check);
    }
    if (unlisted.length > 0) {
      const conditions: string[] = [];
      if (listed) conditions.push(enumMiss(key, extra === true ? knownNames : schema.properties.map((p) => p.name), ctx, `${label}Keys`));
      if (matched !== undefined) conditions.push(`!${matched}`);
      body.push(...(conditions.length > 0 ? ifBlock(conditions.join(' && '), unlisted) : unlisted));
    }
    if (body.length === 0) return [];
    // Own enumerable keys, as JSON.stringify writes them and as minProperties counts them (decision 0019).
    // Indexed, not for...of: a smaller function that V8 still inlines into its callers.
    const keys = partLocal(scope, value, 'keys');
    const index = partLocal(scope, value, 'j');
    const loop: Stmt[] = [`const ${keys} = Object.keys(${obj});`, block(`for (let ${index} = 0; ${index} < ${keys}.length; ${index}++)`, [`const ${key} = ${keys}[${index}]!;`, ...body], 'loop')];
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
