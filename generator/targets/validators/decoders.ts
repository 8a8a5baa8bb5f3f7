import type { ObjectSchema, Operation, Parameter, Schema } from '../../model/types.js';
import { block, ifBlock, ret, type Stmt } from './builder.js';
import { commentText, isInheritedName, listLiteral, literal } from './code.js';
import { fileLines, wholeBodyLines } from './body-decoder.js';
import { emitCheck } from './checks/dispatch.js';
import { DECODER_LOCALS, Scope, type EmitContext } from './context.js';
import { decodeSink } from './sink.js';
import { jsonReader } from './json-readers.js';
import { plainShape, structuredPart } from '../../model/parameters.js';
import { formatLocation } from '../../load/errors.js';

type PlainKind = 'string' | 'integer' | 'number' | 'boolean';

/** The statements of `decodeX(raw)`: each parameter in model order, then the result. */
export function decoderBody(operation: Operation, ctx: EmitContext): Stmt[] {
  const scope = new Scope(DECODER_LOCALS);
  const lines: Stmt[] = ['const value: Record<string, unknown> = {};'];
  // A query parameter also reads a form body field of its name, unless a body field has that name itself.
  const bodyNames = new Set(operation.parameters.filter((p) => p.location === 'body').map((p) => p.name));
  const counted = countedFields(operation, ctx);
  if (counted.size > 0) lines.push('let given = 0;');
  for (const parameter of operation.parameters) {
    const style = styleNote(parameter, ctx);
    lines.push(
      `// ${commentText(`${parameter.name}: ${parameter.location}, ${parameter.encoding}${style}${parameter.required ? ', required' : ''}`)}`,
      block('', parameterLines(parameter, ctx, scope.child(), bodyNames, operation, counted.has(parameter))),
    );
  }
  lines.push(...wholeBodyLines(operation, ctx, scope));
  // Query fields the operation reads besides its parameters' names: the properties of exploded form objects.
  const known = new Set(operation.parameters.map((p) => p.name));
  const deep: string[] = [];
  for (const parameter of operation.parameters) {
    if ((parameter.location !== 'query' && parameter.location !== 'body') || parameter.encoding !== 'plain') continue;
    if (parameter.style === 'deepObject') deep.push(parameter.name);
    else if (objectExploded(parameter, ctx)) for (const property of objectProperties(parameter, ctx)) known.add(property);
  }
  const label = operation.names.pascal;
  // A free-form map of query fields takes every field no other parameter names: none is unsupported.
  const takesAll = operation.parameters.some((p) => p.location === 'query' && p.encoding === 'plain' && freeForm(p, ctx));
  const unsupported = takesAll ? '[]' : unsupportedCall(label, known, deep, ctx, counted.size > 0);
  lines.push(ret(`{ ok: true, value: value as unknown as ${operation.names.pascal}Params, unsupported: ${unsupported} }`));
  return lines;
}

/** The style, in the comment above a parameter's lines, where it changes how the text reads. */
function styleNote(parameter: Parameter, ctx: EmitContext): string {
  if (parameter.encoding !== 'plain' || parameter.style === undefined) return '';
  if (plainShape(ctx, parameter.schema) === 'scalar' && parameter.style !== 'label' && parameter.style !== 'matrix') return '';
  return `, ${parameter.style}${parameter.explode === true ? ' exploded' : ''}`;
}

/**
 * The form and query parameters a decoder counts as it reads them (`given`),
 * so that `unsupportedFields` can tell a request holding only those fields
 * without looking its names up: each read as one field of its own name. None
 * when one is read otherwise (spread over several fields, or sharing its
 * name with another), or when the operation takes every field.
 */
function countedFields(operation: Operation, ctx: EmitContext): Set<Parameter> {
  const fields = operation.parameters.filter((p) => (p.location === 'body' || p.location === 'query') && p.encoding !== 'file');
  const spread = (p: Parameter) => p.encoding === 'plain' && (p.style === 'deepObject' || objectExploded(p, ctx));
  if (fields.some(spread) || new Set(fields.map((p) => p.name)).size !== fields.length) return new Set();
  return new Set(fields);
}

export function parameterLines(parameter: Parameter, ctx: EmitContext, scope: Scope, bodyNames: ReadonlySet<string>, operation: Operation, counted = false): Stmt[] {
  const name = literal(parameter.name);
  const key = parameter.key ?? parameter.name;
  if (parameter.encoding === 'file') return fileLines(parameter, ctx);

  const present = [...decodeLines(parameter, ctx, scope, `${operation.names.pascal}${parameter.names.pascal}`), assign(key, 'x'), ...(counted ? ['given++;'] : [])];
  const lookup = `const w = ${wireValue(parameter, ctx, bodyNames, operation)};`;
  if (parameter.required) return [lookup, `if (w === undefined) return ${ctx.use('missing')}(${name});`, ...present];
  if (parameter.default !== undefined) {
    return [lookup, ...ifBlock('w === undefined', [assign(key, literal(parameter.default))], present)];
  }
  return [lookup, ...ifBlock('w !== undefined', present)];
}

/** The call listing the names of a request that no parameter takes, with its constants. */
function unsupportedCall(label: string, known: Set<string>, deep: string[], ctx: EmitContext, counted: boolean): string {
  const knownSet = ctx.constant(`${label}Parameters`, `new Set<string>(${listLiteral([...known])})`, 'call');
  if (counted) return `${ctx.use('unsupportedFields')}(raw, ${knownSet}, given)`;
  const deepList = deep.length === 0 ? '' : `, ${ctx.constant(`${label}DeepParameters`, listLiteral(deep))}`;
  return `${ctx.use('unsupportedParameters')}(raw, ${knownSet}${deepList})`;
}

/** Wire text `w` to a checked value `x`, returning early on the first failure. */
function decodeLines(parameter: Parameter, ctx: EmitContext, scope: Scope, label: string): Stmt[] {
  const name = literal(parameter.name);
  const resolved = ctx.resolve(parameter.schema);
  const sink = decodeSink(ctx, parameter.name);
  const check = (typeKnown: boolean | 'exact'): Stmt[] => emitCheck({ schema: parameter.schema, value: 'x', path: [], sink, ctx, scope, typeKnown, label });

  if (parameter.encoding === 'json') {
    // The text's reader is made only where the text is parsed whole.
    const parse = (): string => {
      const reader = jsonReader(parameter.schema, ctx, label);
      return reader === undefined ? `${ctx.use('parseJson')}(w)` : `${ctx.use('parseJson')}(w, ${reader})`;
    };
    if (resolved.kind === 'array' && parameter.explode === true) {
      // One JSON part per element (a multipart list of objects).
      return [
        `const x = ${ctx.use('repeatedJson')}(typeof w === "string" ? [w] : w);`,
        `if (x === ${ctx.use('INVALID_JSON')}) return ${ctx.use('invalidJson')}(${name});`,
        ...check(false),
      ];
    }
    if (resolved.kind === 'array') {
      // A list may also arrive as the same field repeated, one element each.
      const itemKind = resolved.items === undefined ? 'json' : elementKind(resolved.items, ctx);
      return [
        `const x = typeof w === "string" ? ${parse()} : ${ctx.use('repeatedElements')}(w, ${literal(itemKind)});`,
        `if (x === ${ctx.use('INVALID_JSON')}) return ${ctx.use('invalidJson')}(${name});`,
        ...check(false),
      ];
    }
    return [
      `if (typeof w !== "string") return ${ctx.use('repeated')}(${name});`,
      `const x = ${parse()};`,
      `if (x === ${ctx.use('INVALID_JSON')}) return ${ctx.use('invalidJson')}(${name});`,
      ...check(false),
    ];
  }

  const shape = plainShape(ctx, parameter.schema);
  if (shape === undefined && parameter.style === 'deepObject') {
    // Nested bracket fields (`items[0][price]=p`): the tree of texts read by the schema's shape, then checked.
    return [
      `if (w === ${ctx.use('DEEP_CONFLICT')}) return ${ctx.use('invalidStyle')}(${name}, "deepObject");`,
      `const x = ${ctx.use('deepValue')}(w, ${deepShapeCode(parameter.schema, ctx, label)});`,
      ...check(false),
    ];
  }
  if (shape === undefined) {
    // The model reads such parameters as JSON text; a model that does not gets the wire value unchecked.
    const at = formatLocation(parameter.source);
    ctx.warn(
      `${at}: validators: parameter \`${parameter.name}\` is sent as plain text but its schema (${resolved.kind}) has no plain-text form: ` +
        'its decoder passes the text through unchecked',
    );
    return ['const x = w;'];
  }
  if (shape === 'mixed') return [...mixedLines(parameter, ctx, label), ...check(false)];
  if (shape === 'array') return [...listLines(parameter, ctx), ...check(false)];
  if (shape === 'object') return [...objectLines(parameter, ctx, label), ...check(false)];

  const lines: Stmt[] = [`if (typeof w !== "string") return ${ctx.use('repeated')}(${name});`];
  let text = 'w';
  if (parameter.style === 'label' || parameter.style === 'matrix') {
    text = 't';
    lines.push(
      parameter.style === 'label' ? `const t = ${ctx.use('labelValue')}(w);` : `const t = ${ctx.use('matrixValue')}(w, ${name});`,
      `if (t === undefined) return ${ctx.use('invalidStyle')}(${name}, ${literal(parameter.style)});`,
    );
  }
  const kind = plainKind(resolved);
  switch (kind) {
    case 'string':
      lines.push(`const x = ${text};`);
      break;
    case 'integer':
    case 'number':
      lines.push(
        `const x = ${ctx.use(kind === 'integer' ? 'parseInteger' : 'parseNumber')}(${text});`,
        `if (typeof x === "string") return ${ctx.use('invalid')}(${name}, "type", "", x);`,
      );
      break;
    case 'boolean':
      lines.push(
        `const x = ${text} === "true" ? true : ${text} === "false" ? false : undefined;`,
        `if (x === undefined) return ${ctx.use('invalid')}(${name}, "type", "", "must be true or false");`,
      );
      break;
    case undefined:
      // A union of scalars, or any value: the first kind the text reads as.
      lines.push(`const x = ${ctx.use('parseScalar')}(${text}, ${scalarKinds(resolved, ctx)});`);
      return [...lines, ...check(false)];
  }
  return [...lines, ...check('exact')];
}

/** Whether the list's wire form is one field per element (`ids=1&ids=2`). */
function repeatsField(parameter: Parameter): boolean {
  return (parameter.location === 'query' || parameter.location === 'cookie' || parameter.location === 'body') && parameter.explode === true && parameter.style !== 'deepObject';
}

/** `w` (a plain list parameter's text) to its elements `l`, then to the decoded list `x`. */
function listLines(parameter: Parameter, ctx: EmitContext): Stmt[] {
  const name = literal(parameter.name);
  const resolved = ctx.resolve(parameter.schema);
  const items = resolved.kind === 'array' && resolved.items !== undefined ? scalarKinds(ctx.resolve(resolved.items), ctx) : ctx.use('SCALAR_STRING');
  const decode = `const x = ${ctx.use('scalarList')}(l, ${items});`;
  // Repeated fields, or `deepObject` lists (`w` from `deepListFields`).
  if (repeatsField(parameter) || parameter.style === 'deepObject') return ['const l = typeof w === "string" ? [w] : w;', decode];
  const lines: Stmt[] = [`if (typeof w !== "string") return ${ctx.use('repeated')}(${name});`];
  const styled = (expr: string): string[] => [`const l = ${expr};`, `if (l === undefined) return ${ctx.use('invalidStyle')}(${name}, ${literal(parameter.style)});`];
  switch (parameter.style) {
    case 'label':
      lines.push(...styled(`${ctx.use('labelList')}(w, ${parameter.explode === true})`));
      break;
    case 'matrix':
      lines.push(...styled(`${ctx.use('matrixList')}(w, ${name}, ${parameter.explode === true})`));
      break;
    case 'spaceDelimited':
      lines.push(`const l = ${ctx.use('splitText')}(w, " ");`);
      break;
    case 'pipeDelimited':
      lines.push(`const l = ${ctx.use('splitText')}(w, "|");`);
      break;
    default:
      lines.push(parameter.location === 'header' ? `const l = ${ctx.use('headerList')}(w);` : `const l = ${ctx.use('splitText')}(w, ",");`);
  }
  return [...lines, decode];
}

/** Whether an object parameter's properties are separate query or body fields or cookies (exploded `form`). */
function objectExploded(parameter: Parameter, ctx: EmitContext): boolean {
  return repeatsField(parameter) && plainShape(ctx, parameter.schema) === 'object';
}

/**
 * An exploded `form` object that lists no properties but allows others (a
 * map): its fields are all those no other parameter of its location names.
 */
function freeForm(parameter: Parameter, ctx: EmitContext): boolean {
  if (!objectExploded(parameter, ctx)) return false;
  const resolved = ctx.resolve(parameter.schema);
  return resolved.kind === 'object' && resolved.properties.length === 0 && resolved.additionalProperties !== false;
}

function objectProperties(parameter: Parameter, ctx: EmitContext): string[] {
  const resolved = ctx.resolve(parameter.schema);
  return resolved.kind === 'object' ? resolved.properties.map((p) => p.name) : [];
}

/** `w` (a plain object parameter's text, or its fields) to the decoded object `x`. */
function objectLines(parameter: Parameter, ctx: EmitContext, label: string): Stmt[] {
  const name = literal(parameter.name);
  const resolved = ctx.resolve(parameter.schema);
  if (resolved.kind !== 'object') throw new Error(`parameter "${parameter.name}" is not an object`);
  const [fieldKinds, rest] = fieldTable(resolved, ctx, label);
  const decode = `const x = ${ctx.use('decodeFields')}(f, ${fieldKinds}, ${rest});`;
  if (parameter.style === 'deepObject' || objectExploded(parameter, ctx)) {
    // `w` already holds the fields (see `wireValue`).
    return ['const f = w;', decode];
  }
  const lines: Stmt[] = [`if (typeof w !== "string") return ${ctx.use('repeated')}(${name});`];
  const explode = parameter.explode === true;
  let list: string;
  switch (parameter.style) {
    case 'label':
      list = `${ctx.use('labelList')}(w, ${explode})`;
      break;
    case 'matrix':
      list = explode ? `${ctx.use('matrixAssignments')}(w)` : `${ctx.use('matrixList')}(w, ${name}, false)`;
      break;
    case 'spaceDelimited':
      list = `${ctx.use('splitText')}(w, " ")`;
      break;
    case 'pipeDelimited':
      list = `${ctx.use('splitText')}(w, "|")`;
      break;
    default:
      list = parameter.location === 'header' ? `${ctx.use('headerList')}(w)` : `${ctx.use('splitText')}(w, ",")`;
  }
  const pairs = ctx.use(explode && (parameter.style === 'simple' || parameter.style === 'label' || parameter.style === 'matrix') ? 'assignedFields' : 'pairFields');
  const styled = parameter.style === 'label' || parameter.style === 'matrix';
  lines.push(
    `const l = ${list};`,
    styled ? `const f = l === undefined ? undefined : ${pairs}(l);` : `const f = ${pairs}(l);`,
    `if (f === undefined) return ${ctx.use('invalidStyle')}(${name}, ${literal(parameter.style)});`,
    decode,
  );
  return lines;
}

/** The constant mapping an object's properties to their `SCALAR_*` kinds, and the kinds of other keys. */
function fieldTable(schema: ObjectSchema, ctx: EmitContext, label: string): [string, string] {
  const entries = schema.properties.map((p) => `[${literal(p.name)}, ${scalarKinds(ctx.resolve(p.schema), ctx)}]`);
  const table = entries.length === 0 ? 'new Map<string, number>()' : `new Map<string, number>([${entries.join(', ')}])`;
  const rest = typeof schema.additionalProperties === 'boolean' ? ctx.use('SCALAR_STRING') : scalarKinds(ctx.resolve(schema.additionalProperties), ctx);
  return [ctx.constant(`${label}Fields`, table, 'call'), rest];
}

/**
 * A parameter that is a scalar or a list or object of scalars, under
 * `deepObject` or (a list) exploded `form`: `w` holds the fields or list when
 * the request has them (`created[gt]=5`, `ids[]=1`, `ids=1&ids=2`), else the
 * one text (`created=5`, `ids=1,2` for a comma-list string).
 */
function mixedLines(parameter: Parameter, ctx: EmitContext, label: string): Stmt[] {
  const name = literal(parameter.name);
  const resolved = ctx.resolve(parameter.schema);
  const part = structuredPart(ctx, resolved);
  const scalars = resolved.kind === 'union' ? resolved.variants.filter((v) => ctx.resolve(v) !== part) : [];
  const kinds = scalarKinds({ kind: 'union', variants: scalars }, ctx);
  if (part.kind === 'object') {
    const [fieldKinds, rest] = fieldTable(part, ctx, label);
    return [
      `if (Array.isArray(w)) return ${ctx.use('repeated')}(${name});`,
      `const x = typeof w === "string" ? ${ctx.use('parseScalar')}(w, ${kinds}) : ${ctx.use('decodeFields')}(w, ${fieldKinds}, ${rest});`,
    ];
  }
  const items = part.kind === 'array' && part.items !== undefined ? scalarKinds(ctx.resolve(part.items), ctx) : ctx.use('SCALAR_STRING');
  return [`const x = typeof w === "string" ? ${ctx.use('parseScalar')}(w, ${kinds}) : ${ctx.use('scalarList')}(w, ${items});`];
}

/** Mutable `DeepShape` while a schema's levels are merged into it. */
interface DeepLevel {
  scalars: Schema[];
  properties?: Map<string, DeepLevel>;
  rest?: DeepLevel;
  items?: DeepLevel;
  /** A level that also takes any value: its texts are kept. */
  open?: boolean;
}

/**
 * The `deepShape(...)` constant a nested `deepObject` decoder reads its tree
 * with: each level's scalar kinds, object keys and list elements, unions
 * merged level by level (runtime `DeepShape`). Levels below `MAX_DEEP` are
 * left open (their texts kept); the model only lets finite shapes through.
 */
const MAX_DEEP = 12;

function deepShapeCode(schema: Schema, ctx: EmitContext, label: string): string {
  const level: DeepLevel = { scalars: [] };
  mergeDeep(schema, level, ctx, 0, 0);
  return deepLevelCode(level, ctx, `${label}Shape`);
}

function mergeDeep(schema: Schema, into: DeepLevel, ctx: EmitContext, depth: number, unions: number): void {
  if (depth > MAX_DEEP) {
    into.open = true;
    return;
  }
  const resolved = ctx.resolve(schema);
  switch (resolved.kind) {
    case 'object': {
      into.properties ??= new Map();
      for (const property of resolved.properties) {
        let child = into.properties.get(property.name);
        if (child === undefined) into.properties.set(property.name, (child = { scalars: [] }));
        mergeDeep(property.schema, child, ctx, depth + 1, 0);
      }
      if (typeof resolved.additionalProperties !== 'boolean') mergeDeep(resolved.additionalProperties, (into.rest ??= { scalars: [] }), ctx, depth + 1, 0);
      else if (resolved.additionalProperties) (into.rest ??= { scalars: [] }).open = true;
      return;
    }
    case 'array':
      if (resolved.items === undefined) (into.items ??= { scalars: [] }).open = true;
      else mergeDeep(resolved.items, (into.items ??= { scalars: [] }), ctx, depth + 1, 0);
      return;
    case 'union':
      if (unions < 4) for (const variant of resolved.variants) mergeDeep(variant, into, ctx, depth, unions + 1);
      return;
    case 'any':
      if (resolved.enum === undefined && resolved.const === undefined) into.open = true;
      else into.scalars.push(resolved);
      return;
    case 'never':
      return;
    default:
      into.scalars.push(resolved);
  }
}

function deepLevelCode(level: DeepLevel, ctx: EmitContext, label: string): string {
  // An open level keeps its texts, unless it also names lists or objects to read them as.
  if (level.open === true && level.properties === undefined && level.items === undefined && level.rest === undefined) return 'undefined';
  const kinds = level.scalars.length === 0 ? 'undefined' : scalarKinds({ kind: 'union', variants: level.scalars }, ctx);
  const properties = level.properties === undefined ? 'undefined' : `[${[...level.properties].map(([key, child]) => `[${literal(key)}, ${deepLevelCode(child, ctx, `${label} ${key}`)}]`).join(', ')}]`;
  const rest = level.rest === undefined ? 'undefined' : deepLevelCode(level.rest, ctx, `${label} value`);
  const items = level.items === undefined ? 'undefined' : deepLevelCode(level.items, ctx, `${label} item`);
  const args = [kinds, properties, rest, items];
  while (args.length > 1 && args[args.length - 1] === 'undefined') args.pop();
  return ctx.constant(label, `${ctx.use('deepShape')}(${args.join(', ')})`, 'call');
}

function plainKind(schema: Schema): PlainKind | undefined {
  switch (schema.kind) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return schema.kind;
    default:
      return undefined;
  }
}

/** The `SCALAR_*` bits of the scalar kinds a (scalar or union of scalars) schema accepts, as code. */
export function scalarKinds(schema: Schema, ctx: EmitContext): string {
  const bits = new Set<string>();
  const visit = (node: Schema, depth: number): void => {
    const resolved = ctx.resolve(node);
    switch (resolved.kind) {
      case 'string':
        bits.add('SCALAR_STRING');
        break;
      case 'integer':
        bits.add('SCALAR_INTEGER');
        break;
      case 'number':
        bits.add('SCALAR_NUMBER');
        break;
      case 'boolean':
        bits.add('SCALAR_BOOLEAN');
        break;
      case 'null':
        bits.add('SCALAR_NULL');
        break;
      case 'union':
        if (depth < 4) for (const variant of resolved.variants) visit(variant, depth + 1);
        break;
      case 'any':
        if (resolved.enum === undefined && resolved.const === undefined) {
          bits.add('SCALAR_STRING');
          break;
        }
        for (const value of resolved.enum ?? [resolved.const]) {
          if (value === null) bits.add('SCALAR_NULL');
          else if (typeof value === 'boolean') bits.add('SCALAR_BOOLEAN');
          else if (typeof value === 'number') bits.add(Number.isInteger(value) ? 'SCALAR_INTEGER' : 'SCALAR_NUMBER');
          else bits.add('SCALAR_STRING');
        }
        break;
      default:
        bits.add('SCALAR_STRING');
    }
  };
  visit(schema, 0);
  const order = ['SCALAR_BOOLEAN', 'SCALAR_INTEGER', 'SCALAR_NUMBER', 'SCALAR_NULL', 'SCALAR_STRING'] as const;
  const list = order.filter((bit) => bits.has(bit));
  return list.length === 0 ? ctx.use('SCALAR_STRING') : list.map((bit) => ctx.use(bit)).join(' | ');
}

function elementKind(schema: Schema, ctx: EmitContext): PlainKind | 'json' {
  return plainKind(ctx.resolve(schema)) ?? 'json';
}

/** `value[name] = expr`, except that `__proto__` must become an own property, not the prototype. */
function assign(name: string, expr: string): string {
  return name === '__proto__'
    ? `Object.defineProperty(value, "__proto__", { value: ${expr}, enumerable: true, writable: true, configurable: true });`
    : `value[${literal(name)}] = ${expr};`;
}

/**
 * Where a parameter's text is read: path parameters from the path, query
 * parameters from the form body, then the query string (unless a body field
 * has the same name), headers by lower-case name, cookies by name; exploded
 * form objects and `deepObject` objects as their fields. Each read uses a
 * constant key, so it stays a fast monomorphic property load.
 */
function wireValue(parameter: Parameter, ctx: EmitContext, bodyNames: ReadonlySet<string>, operation: Operation): string {
  const wire = parameter.location === 'header' ? parameter.name.toLowerCase() : parameter.name;
  const key = literal(wire);
  // Names like `constructor` would otherwise be found on Object.prototype.
  const read = (source: string, optional = false) =>
    isInheritedName(wire) ? `${ctx.use('ownField')}(${optional ? `${source} ?? {}` : source}, ${key})` : `${source}${optional ? '?.' : ''}[${key}]`;
  if (parameter.encoding === 'plain') {
    // Form body fields spread by their style are read from the body only.
    const fields = parameter.location === 'body' ? 'raw.body' : 'raw.query';
    if (parameter.style === 'deepObject') {
      const shape = plainShape(ctx, parameter.schema);
      if (shape === undefined) return `${ctx.use('deepTree')}(${fields}, ${key})`;
      const structured = shape === 'mixed' ? structuredPart(ctx, parameter.schema).kind : shape;
      if (structured === 'array') return `${ctx.use('deepListFields')}(${fields}, ${key})`;
      return shape === 'mixed' ? `${ctx.use('deepObjectFields')}(${fields}, ${key}) ?? ${read(fields)}` : `${ctx.use('deepObjectFields')}(${fields}, ${key})`;
    }
    if (objectExploded(parameter, ctx)) {
      const source = parameter.location === 'cookie' ? 'raw.cookies' : fields;
      if (freeForm(parameter, ctx)) {
        const others = operation.parameters.filter((p) => p !== parameter && p.location === parameter.location && p.encoding !== 'file');
        const taken = others.flatMap((p) => (p.encoding === 'plain' && objectExploded(p, ctx) ? objectProperties(p, ctx) : [p.name]));
        const deep = others.filter((p) => p.encoding === 'plain' && p.style === 'deepObject').map((p) => p.name);
        const label = `${operation.names.pascal}${parameter.names.pascal}`;
        const deepList = deep.length === 0 ? '' : `, ${ctx.constant(`${label}DeepParameters`, listLiteral(deep))}`;
        return `${ctx.use('otherFields')}(${source}, ${ctx.constant(`${label}Taken`, `new Set<string>(${listLiteral([...new Set(taken)])})`, 'call')}${deepList})`;
      }
      const properties = objectProperties(parameter, ctx);
      const names = ctx.constant(`${operation.names.pascal}${parameter.names.pascal}Names`, properties.length > 0 ? listLiteral(properties) : '[] as string[]');
      return `${ctx.use('explodedFields')}(${source}, ${names})`;
    }
  }
  switch (parameter.location) {
    case 'path':
      return read('raw.path');
    case 'header':
      return read('raw.headers', true);
    case 'cookie':
      return read('raw.cookies', true);
    case 'query':
      return bodyNames.has(parameter.name) ? read('raw.query') : `${read('raw.body')} ?? ${read('raw.query')}`;
    default:
      return `${read('raw.body')} ?? ${read('raw.query')}`;
  }
}
