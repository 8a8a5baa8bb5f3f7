import { literal, pathExpression, type PathPart } from './code.js';
import type { Scope } from './context.js';

/**
 * What a failed check does. Check functions (response validators, named
 * schemas) collect failures into `out` and stop unless `all`; decoders return
 * a BAD_REQUEST result for the parameter at the first failure.
 */
export interface Sink {
  /** Statements run when a check fails; they return when the check must stop. */
  fail(rule: string, path: PathPart[], message: string): string[];
  /** Statements that run check function `fn` on `value` found at `path`. */
  call(fn: string, value: string, path: PathPart[], scope: Scope): string[];
  /** Expression for strict mode (unknown properties reported). */
  strict: string;
  /** Set on the sink of predicate functions, whose failures only return `false` (no rule, path or message). */
  test?: boolean;
  /** The same sink with strict mode off, for sinks `withoutStrict` cannot derive by itself. */
  relaxed?(): Sink;
}

export const collectSink: Sink = {
  fail(rule, path, message) {
    return [
      `out.push({ path: ${pathExpression(path)}, message: ${literal(message)}, rule: ${literal(rule)} });`,
      'if (!all) return;',
    ];
  },
  call(fn, value, path, scope) {
    const mark = scope.next('n');
    const after =
      path.length === 0
        ? ['if (!all) return;']
        : [`prefixFailures(out, ${mark}, ${pathExpression(path)});`, 'if (!all) return;'];
    return [
      `const ${mark} = out.length;`,
      `${fn}(${value}, out, all, strict);`,
      `if (out.length !== ${mark}) {`,
      ...after.map((line) => `  ${line}`),
      '}',
    ];
  },
  strict: 'strict',
};

/**
 * The sink of one decoder parameter: every failure becomes its BAD_REQUEST
 * result. `test` names the predicate of a check function: a valid value is
 * tested by it alone, and only an invalid one runs the check for its failure.
 */
export function decodeSink(parameter: string, test: (fn: string) => string): Sink {
  const name = literal(parameter);
  return {
    fail(rule, path, message) {
      return [`return invalid(${name}, ${literal(rule)}, ${pathExpression(path)}, ${literal(message)});`];
    },
    call(fn, value, path, scope) {
      const found = scope.next('f');
      return [
        `if (!${test(fn)}(${value}, false)) {`,
        `  const ${found}: Failure[] = [];`,
        `  ${fn}(${value}, ${found}, false, false);`,
        `  if (${found}.length !== 0) return invalidFrom(${name}, ${found}[0]!, ${pathExpression(path)});`,
        '}',
      ];
    },
    strict: 'false',
  };
}

/**
 * The same sink, with strict mode off: for the extra `allOf` members of a
 * schema, which see only part of an object whose keys the schema's own check
 * (knowing every member's keys) already vets.
 */
export function withoutStrict(sink: Sink): Sink {
  if (sink.strict === 'false') return sink;
  if (sink.relaxed !== undefined) return sink.relaxed();
  return {
    fail: sink.fail,
    call(fn, value, path, scope) {
      return sink.call(fn, value, path, scope).map((line) => line.replace(`${fn}(${value}, out, all, strict);`, `${fn}(${value}, out, all, false);`));
    },
    strict: 'false',
  };
}
