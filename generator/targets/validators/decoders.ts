import type { Operation, Parameter, Schema } from '../../model/types.js';
import { commentText, ifBlock, indent, isInheritedName, listLiteral, literal } from './code.js';
import { emitCheck } from './checks/dispatch.js';
import { Scope, type EmitContext } from './context.js';
import { decodeSink } from './sink.js';

type PlainKind = 'string' | 'integer' | 'number' | 'boolean';

/** The statements of `decodeX(raw)`: each parameter in model order, then the result. */
export function decoderBody(operation: Operation, ctx: EmitContext): string[] {
  const scope = new Scope();
  const lines = ['const value: Record<string, unknown> = {};'];
  for (const parameter of operation.parameters) {
    lines.push(
      `// ${commentText(`${parameter.name}: ${parameter.location}, ${parameter.encoding}${parameter.required ? ', required' : ''}`)}`,
      '{',
      ...indent(parameterLines(parameter, ctx, scope)),
      '}',
    );
  }
  const known = ctx.constant('PARAMETERS', `new Set<string>(${listLiteral(operation.parameters.map((p) => p.name))})`);
  lines.push(
    `return { ok: true, value: value as unknown as ${operation.names.pascal}Params, unsupported: unsupportedParameters(raw, ${known}) };`,
  );
  return lines;
}

function parameterLines(parameter: Parameter, ctx: EmitContext, scope: Scope): string[] {
  const name = literal(parameter.name);
  if (parameter.encoding === 'file') {
    const found = [`const x = singleFile(raw, ${name});`];
    return parameter.required
      ? [...found, `if (typeof x === "number") return wrongFileCount(${name}, x);`, assign(parameter.name, 'x')]
      : [...found, `if (typeof x !== "number") ${assign(parameter.name, 'x')}`, `else if (x > 1) return wrongFileCount(${name}, x);`];
  }

  const present = [...decodeLines(parameter, ctx, scope), assign(parameter.name, 'x')];
  const lookup = `const w = ${wireValue(parameter)};`;
  if (parameter.required) return [lookup, `if (w === undefined) return missing(${name});`, ...present];
  if (parameter.default !== undefined) {
    return [lookup, ...ifBlock('w === undefined', [assign(parameter.name, literal(parameter.default))], present)];
  }
  return [lookup, ...ifBlock('w !== undefined', present)];
}

/** Wire text `w` to a checked value `x`, returning early on the first failure. */
function decodeLines(parameter: Parameter, ctx: EmitContext, scope: Scope): string[] {
  const name = literal(parameter.name);
  const resolved = ctx.resolve(parameter.schema);
  const sink = decodeSink(parameter.name);
  const check = (typeKnown: boolean | 'exact'): string[] =>
    emitCheck({ schema: parameter.schema, value: 'x', path: [], sink, ctx, scope, typeKnown });

  if (parameter.encoding === 'json') {
    if (resolved.kind === 'array') {
      // A list may also arrive as the same field repeated, one element each.
      const itemKind = resolved.items === undefined ? 'json' : elementKind(resolved.items, ctx);
      return [
        `const x = typeof w === "string" ? parseJson(w) : repeatedElements(w, ${literal(itemKind)});`,
        `if (x === INVALID_JSON) return invalidJson(${name});`,
        ...check(false),
      ];
    }
    return [
      `if (typeof w !== "string") return repeated(${name});`,
      'const x = parseJson(w);',
      `if (x === INVALID_JSON) return invalidJson(${name});`,
      ...check(false),
    ];
  }

  const kind = plainKind(resolved);
  if (kind === undefined) {
    throw new Error(
      `parameter "${parameter.name}" (${parameter.source.file}) is sent as plain text but its schema is ${resolved.kind}; ` +
        'only strings, integers, numbers and booleans travel as plain text',
    );
  }
  const lines = [`if (typeof w !== "string") return repeated(${name});`];
  switch (kind) {
    case 'string':
      lines.push('const x = w;');
      break;
    case 'integer':
    case 'number':
      lines.push(
        `const x = ${kind === 'integer' ? 'parseInteger' : 'parseNumber'}(w);`,
        `if (typeof x === "string") return invalid(${name}, "type", "", x);`,
      );
      break;
    case 'boolean':
      lines.push(
        'const x = w === "true" ? true : w === "false" ? false : undefined;',
        `if (x === undefined) return invalid(${name}, "type", "", "must be true or false");`,
      );
      break;
  }
  return [...lines, ...check('exact')];
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
 * Where a parameter's text is read: path parameters from the path, the rest
 * from the form body, then the query string. Each read uses a constant key,
 * so it stays a fast monomorphic property load.
 */
function wireValue(parameter: Parameter): string {
  const key = literal(parameter.name);
  // Names like `constructor` would otherwise be found on Object.prototype.
  const read = (source: string) => (isInheritedName(parameter.name) ? `ownField(${source}, ${key})` : `${source}[${key}]`);
  return parameter.location === 'path' ? read('raw.path') : `${read('raw.body')} ?? ${read('raw.query')}`;
}
