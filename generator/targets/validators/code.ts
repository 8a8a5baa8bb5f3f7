/**
 * Small helpers for printing TypeScript expressions: literals and issue
 * paths. Every value from the spec reaches generated code through
 * `literal`, never by raw interpolation.
 */

/** A JS literal for a JSON-compatible value (strings, numbers, arrays, objects). */
export function literal(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`cannot print non-finite number ${value}`);
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new Error(`cannot print ${String(value)} as a literal`);
  return text;
}

/** An array literal of JSON values, one space after each comma. */
export function listLiteral(values: readonly unknown[]): string {
  return `[${values.map((v) => literal(v)).join(', ')}]`;
}

/** Text safe inside a `/** ... *\/` comment on one line. */
export function commentText(text: string): string {
  return text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The JSON-path segment of a property: `.name`, or `["odd name"]`. */
export function propertySegment(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/**
 * A piece of an issue path: fixed text, an expression evaluated only on
 * failure, or an object key held in a local (printed through the runtime's
 * `keySegment`, imported only where a failure prints it).
 */
export type PathPart = { text: string } | { expr: string } | { key: string };

export function appendText(path: PathPart[], text: string): PathPart[] {
  const last = path[path.length - 1];
  if (last !== undefined && 'text' in last) return [...path.slice(0, -1), { text: last.text + text }];
  return [...path, { text }];
}

export function appendExpr(path: PathPart[], expr: string): PathPart[] {
  return [...path, { expr }];
}

export function appendKey(path: PathPart[], key: string): PathPart[] {
  return [...path, { key }];
}

/** The expression that builds a path at run time (`""` for the value itself); `use` names the runtime helper a key segment calls. */
export function pathExpression(path: PathPart[], use: (name: 'keySegment') => string): string {
  if (path.length === 0) return '""';
  return path.map((part) => ('text' in part ? literal(part.text) : 'expr' in part ? part.expr : `${use('keySegment')}(${part.key})`)).join(' + ');
}

/** Names a reserved by `Object.prototype`, which a plain `obj[name]` read would find on any object. */
export function isInheritedName(name: string): boolean {
  return name in Object.prototype || name === '__proto__';
}
