/**
 * Small helpers for printing TypeScript source: literals, issue paths and
 * indentation. Every value from the spec reaches generated code through
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

/** A piece of an issue path: fixed text, or an expression evaluated only on failure. */
export type PathPart = { text: string } | { expr: string };

export function appendText(path: PathPart[], text: string): PathPart[] {
  const last = path[path.length - 1];
  if (last !== undefined && 'text' in last) return [...path.slice(0, -1), { text: last.text + text }];
  return [...path, { text }];
}

export function appendExpr(path: PathPart[], expr: string): PathPart[] {
  return [...path, { expr }];
}

/** The expression that builds a path at run time (`""` for the value itself). */
export function pathExpression(path: PathPart[]): string {
  if (path.length === 0) return '""';
  return path.map((part) => ('text' in part ? literal(part.text) : part.expr)).join(' + ');
}

export function indent(lines: string[], levels = 1): string[] {
  const pad = '  '.repeat(levels);
  return lines.map((line) => (line === '' ? line : pad + line));
}

/** `if (cond) { body }`, with an optional else branch. */
export function ifBlock(condition: string, body: string[], otherwise: string[] = []): string[] {
  const lines = [`if (${condition}) {`, ...indent(body), '}'];
  if (otherwise.length === 0) return lines;
  if (otherwise.length > 0 && otherwise[0]!.startsWith('if (') && otherwise[otherwise.length - 1] === '}' && isSingleStatement(otherwise)) {
    return [...lines.slice(0, -1), `} else ${otherwise[0]}`, ...otherwise.slice(1)];
  }
  return [...lines.slice(0, -1), '} else {', ...indent(otherwise), '}'];
}

/** Whether `lines` is one `if ... {} [else ...]` chain (so it can follow `else` directly). */
function isSingleStatement(lines: string[]): boolean {
  for (let i = 1; i < lines.length - 1; i++) {
    const line = lines[i]!;
    if (!line.startsWith(' ') && !line.startsWith('} else')) return false;
  }
  return true;
}

/** Names a reserved by `Object.prototype`, which a plain `obj[name]` read would find on any object. */
export function isInheritedName(name: string): boolean {
  return name in Object.prototype || name === '__proto__';
}

/**
 * `lines` (statements at indentation 0, blocks indented two spaces, as
 * `ifBlock` prints them) without the statements that follow one that always
 * leaves the function: a `return`, or an `if` whose every branch, `else`
 * included, does. A check that can never pass (a required property whose
 * schema accepts nothing) fails unconditionally, and TypeScript does not
 * narrow values in the unreachable code after it, where checks then fail to
 * type-check.
 */
export function withoutDeadCode(lines: string[]): string[] {
  return pruneBlock(lines).lines;
}

function pruneBlock(lines: string[]): { lines: string[]; exits: boolean } {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const statement = readStatement(lines, i);
    out.push(...statement.lines);
    i = statement.next;
    if (statement.exits) return { lines: out, exits: true };
  }
  return { lines: out, exits: false };
}

const atTop = (line: string): boolean => line !== '' && !line.startsWith(' ');

function readStatement(lines: string[], start: number): { lines: string[]; next: number; exits: boolean } {
  const header = lines[start]!;
  if (!header.endsWith('{')) return { lines: [header], next: start + 1, exits: /^return\b/.test(header) };
  // A block: its header, then bodies and `} else ... {` lines at the top, until a closing line.
  const out = [header];
  const conditional = header.startsWith('if (');
  let exits = conditional || header === '{';
  let hasElse = false;
  let i = start + 1;
  for (;;) {
    const body: string[] = [];
    while (i < lines.length && !atTop(lines[i]!)) body.push(lines[i++]!);
    const pruned = pruneBlock(body.map((line) => (line === '' ? line : line.slice(2))));
    out.push(...indent(pruned.lines));
    exits &&= pruned.exits;
    const closer = lines[i];
    if (closer === undefined) return { lines: out, next: i, exits: false };
    out.push(closer);
    i++;
    if (!(conditional && closer.startsWith('} else') && closer.endsWith('{'))) break;
    if (closer === '} else {') hasElse = true;
  }
  return { lines: out, next: i, exits: exits && (hasElse || header === '{') };
}
