/**
 * The request-body part of the generated decoders: a `whole` body (JSON,
 * text, bytes) read from `raw.content` by its media type, and multipart file
 * fields (one file, or a list of files). `decoders.ts` calls these.
 */
import type { BodyContent, Operation, Parameter } from '../../model/types.js';
import { block, ret, type Stmt } from './builder.js';
import { commentText, listLiteral, literal } from './code.js';
import { emitCheck } from './checks/dispatch.js';
import type { EmitContext, Scope } from './context.js';
import { decodeSink } from './sink.js';
import { parameterLines } from './decoders.js';

/**
 * Statements that decode a `whole` request body into `value[parameterName]`,
 * returning early on a missing required body, an undeclared media type or a
 * value its schema refuses; none for an operation without such a body.
 */
export function wholeBodyLines(operation: Operation, ctx: EmitContext, scope: Scope): Stmt[] {
  const body = operation.requestBody;
  if (body?.mode !== 'whole' || body.parameterName === undefined) return [];
  const name = body.parameterName;
  const label = `${operation.names.pascal}Body`;
  const types = ctx.constant(`${label}MediaTypes`, `${listLiteral(body.contents.map((c) => c.mediaType))} as readonly string[]`);
  const cases: Stmt[] = body.contents.map((content, index) =>
    block(`case ${index}:`, [...contentLines(content, name, ctx, scope.child(), operation, label), assign(name, 'x'), 'break;'], 'switch'),
  );
  cases.push(block('default:', [ret(`${ctx.use('unsupportedMediaType')}(${literal(name)}, c.mediaType)`)], 'switch'));
  const decode = block(`switch (${ctx.use('matchMediaType')}(c.mediaType, ${types}))`, cases, 'switch');
  return [
    `// ${commentText(`${name}: the whole body, ${body.contents.map((c) => c.mediaType).join(' | ')}${body.required ? ', required' : ''}`)}`,
    block('', [
      'const c = raw.content;',
      ...(body.required ? [`if (c === undefined) return ${ctx.use('missing')}(${literal(name)});`, decode] : [{ kind: 'if' as const, cond: 'c !== undefined', then: [decode], else: [] }]),
    ]),
  ];
}

/** `x` from `c.value` for one media type, checked by its kind. */
function contentLines(content: BodyContent, name: string, ctx: EmitContext, scope: Scope, operation: Operation, label: string): Stmt[] {
  const check = (typeKnown: boolean | 'exact'): Stmt[] => emitCheck({ schema: content.schema, value: 'x', path: [], sink: decodeSink(ctx, name), ctx, scope, typeKnown, label });
  switch (content.kind) {
    case 'json':
      return ['const x = c.value;', ...check(false)];
    case 'text':
      return [
        'const x = c.value;',
        `if (typeof x !== "string") return ${ctx.use('wrongBodyShape')}(${literal(name)}, "text");`,
        ...(ctx.resolve(content.schema).kind === 'string' ? check('exact') : []),
      ];
    case 'binary':
      return ['const x = c.value;', `if (!(x instanceof Uint8Array)) return ${ctx.use('wrongBodyShape')}(${literal(name)}, "bytes");`];
    default: {
      // A form or multipart body beside other media types: its fields decoded as `fields` mode's would be, then the schema checked.
      const fields = content.fields;
      if (fields === undefined) return ['const x = c.value;'];
      const names = new Set(fields.map((field) => field.name));
      // Read as the parameters of an operation whose only parameters are these fields.
      const asOperation: Operation = { ...operation, parameters: fields };
      const lines = fields.map((field) => block('', parameterLines(field, ctx, scope.child(), names, asOperation)));
      return [
        block(
          'const r = ((raw: RawRequest): Decoded<Record<string, unknown>> =>',
          ['const value: Record<string, unknown> = {};', ...lines, ret('{ ok: true, value, unsupported: [] }')],
          'function',
          ')({ ...raw, body: c.value as RawRequest["body"], query: {} });',
        ),
        'if (!r.ok) return r;',
        'const x = r.value;',
        ...check(false),
      ];
    }
  }
}

/**
 * Statements that decode a multipart file field: exactly one file, or (for
 * an array of binary strings) every file sent under the name.
 */
export function fileLines(parameter: Parameter, ctx: EmitContext): Stmt[] {
  const name = literal(parameter.name);
  const key = parameter.key ?? parameter.name;
  if (ctx.resolve(parameter.schema).kind === 'array') {
    const found = [`const x = ${ctx.use('fileList')}(raw, ${name});`];
    return parameter.required
      ? [...found, `if (x.length === 0) return ${ctx.use('missing')}(${name});`, assign(key, 'x')]
      : [...found, `if (x.length !== 0) ${assign(key, 'x')}`];
  }
  const found = [`const x = ${ctx.use('singleFile')}(raw, ${name});`];
  return parameter.required
    ? [...found, `if (typeof x === "number") return ${ctx.use('wrongFileCount')}(${name}, x);`, assign(key, 'x')]
    : [...found, `if (typeof x !== "number") ${assign(key, 'x')}`, `else if (x > 1) return ${ctx.use('wrongFileCount')}(${name}, x);`];
}

/** `value[name] = expr`, except that `__proto__` must become an own property, not the prototype. */
function assign(name: string, expr: string): string {
  return name === '__proto__'
    ? `Object.defineProperty(value, "__proto__", { value: ${expr}, enumerable: true, writable: true, configurable: true });`
    : `value[${literal(name)}] = ${expr};`;
}

