import { EXIT, ifBlock, ret, type Stmt } from './builder.js';
import { literal, pathExpression, type PathPart } from './code.js';
import { partLocal, type EmitContext, type Scope } from './context.js';

/**
 * What a failed check does. Check functions (response validators, named
 * schemas) collect failures into `out` and stop unless `all`; decoders return
 * a BAD_REQUEST result for the parameter at the first failure; predicates
 * return `false`.
 */
export interface Sink {
  kind: 'collect' | 'decode' | 'test';
  /** Statements run when a check fails; they leave when the check must stop. */
  fail(rule: string, path: PathPart[], message: string): Stmt[];
  /** Statements that run check function `fn` on `value` found at `path`. */
  call(fn: string, value: string, path: PathPart[], scope: Scope): Stmt[];
  /**
   * Statements that report, in strict mode, the keys of object `record` that
   * `known` (a Set constant or an array literal) does not list, leaving when
   * the check must stop; undefined where the sink runs the key loop inline.
   */
  unknownKeys?(record: string, known: string, path: PathPart[]): Stmt[];
  /** Expression for strict mode (unknown properties reported). */
  strict: string;
  /**
   * The same sink with strict mode off: for the extra `allOf` members of a
   * schema, which see only part of an object whose keys the schema's own
   * check (knowing every member's keys) already vets.
   */
  relaxed(): Sink;
}

/** The sink of check functions `(v, out, all, strict)`: failures are pushed to `out`. */
export function collectSink(ctx: EmitContext, strict = 'strict'): Sink {
  const use = (name: 'keySegment'): string => ctx.use(name);
  return {
    kind: 'collect',
    fail(rule, path, message) {
      return [failureRecord(ctx, rule, path, message), ...ifBlock('!all', [EXIT])];
    },
    call(fn, value, path, scope) {
      const mark = partLocal(scope, value, 'mark');
      const after: Stmt[] = path.length === 0 ? ifBlock('!all', [EXIT]) : [`${ctx.use('prefixFailures')}(out, ${mark}, ${pathExpression(path, use)});`, ...ifBlock('!all', [EXIT])];
      return [`const ${mark} = out.length;`, `${fn}(${value}, out, all, ${strict});`, ...ifBlock(`out.length !== ${mark}`, after)];
    },
    unknownKeys(record, known, path) {
      return ifBlock(`${strict} && ${ctx.use('pushUnknownKeys')}(out, ${pathExpression(path, use)}, ${record}, ${known}, all)`, [EXIT]);
    },
    strict,
    relaxed: () => collectSink(ctx, 'false'),
  };
}

const TYPE_MESSAGE = 'must be ';

/**
 * The statement that records one failure: through the runtime helper of its
 * rule where one fits (the record is the same), so that each failure site is
 * one short call.
 */
function failureRecord(ctx: EmitContext, rule: string, path: PathPart[], message: string): string {
  const at = pathExpression(path, (name) => ctx.use(name));
  if (rule === 'required' && message === 'is required') return `${ctx.use('pushMissing')}(out, ${at});`;
  if (rule === 'type' && message.startsWith(TYPE_MESSAGE)) return `${ctx.use('pushWrongType')}(out, ${at}, ${literal(message.slice(TYPE_MESSAGE.length))});`;
  return `${ctx.use('pushFailure')}(out, ${at}, ${literal(message)}, ${literal(rule)});`;
}

/**
 * The sink of one decoder parameter: every failure becomes its BAD_REQUEST
 * result. A valid value is tested by the predicate of a check function
 * alone, and only an invalid one runs the check for its failure.
 */
export function decodeSink(ctx: EmitContext, parameter: string): Sink {
  const name = literal(parameter);
  const use = (helper: 'keySegment'): string => ctx.use(helper);
  const sink: Sink = {
    kind: 'decode',
    fail(rule, path, message) {
      return [ret(`${ctx.use('invalid')}(${name}, ${literal(rule)}, ${pathExpression(path, use)}, ${literal(message)})`)];
    },
    call(fn, value, path, scope) {
      const found = partLocal(scope, value, 'failures');
      return ifBlock(`!${ctx.predicateOfFunction(fn)}(${value}, false)`, [
        `const ${found}: Failure[] = [];`,
        `${fn}(${value}, ${found}, false, false);`,
        `if (${found}.length !== 0) return ${ctx.use('invalidFrom')}(${name}, ${found}[0]!, ${pathExpression(path, use)});`,
      ]);
    },
    strict: 'false',
    relaxed: () => sink,
  };
  return sink;
}

/**
 * The sink of predicate functions `(v, strict) => boolean`: a failure is
 * `return false;`, a named or shared schema is its own predicate. They run
 * where only "does it match" matters (union variants, `not`, `contains`) and
 * first in every check function, so a valid value never builds a failure
 * record, a path or a message, and never reads `out`.
 */
export function testSink(ctx: EmitContext, strict = 'strict'): Sink {
  return {
    kind: 'test',
    fail: () => [ret('false')],
    call: (fn, value) => [`if (!${ctx.predicateOfFunction(fn)}(${value}, ${strict})) return false;`],
    strict,
    relaxed: () => testSink(ctx, 'false'),
  };
}

