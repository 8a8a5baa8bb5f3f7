/** Envelope fields the bindings add to every success body; handlers return the rest. */
const ENVELOPE = new Set(['result', 'msg', 'ignored_parameters_unsupported']);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const INLINE_WIDTH = 72;

/**
 * The handler's part of a success example (envelope fields removed) as a
 * TypeScript expression whose lines after the first start with `indent`.
 * Undefined when there is no example object.
 */
export function exampleLiteral(example: unknown, indent: string): string | undefined {
  if (!isRecord(example)) return undefined;
  const body = Object.fromEntries(Object.entries(example).filter(([key]) => !ENVELOPE.has(key)));
  return printValue(body, indent);
}

export function printValue(value: unknown, indent: string): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return printArray(value, indent);
  if (isRecord(value)) return printObject(value, indent);
  throw new Error(`server target: an example holds a value JSON cannot carry (${typeof value})`);
}

function printArray(items: unknown[], indent: string): string {
  if (items.length === 0) return '[]';
  const inner = indent + '  ';
  const printed = items.map((item) => printValue(item, inner));
  const inline = `[${printed.join(', ')}]`;
  if (!inline.includes('\n') && inline.length + indent.length <= INLINE_WIDTH) return inline;
  return `[\n${printed.map((item) => `${inner}${item},`).join('\n')}\n${indent}]`;
}

function printObject(record: Record<string, unknown>, indent: string): string {
  const entries = Object.entries(record);
  if (entries.length === 0) return '{}';
  const inner = indent + '  ';
  const lines = entries.map(([key, value]) => `${inner}${printKey(key)}: ${printValue(value, inner)},`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function printKey(key: string): string {
  // A literal `__proto__` key would set the prototype instead of a property.
  if (key === '__proto__') return `[${quote(key)}]`;
  return IDENTIFIER.test(key) ? key : quote(key);
}

/** A single-quoted TypeScript string literal. */
export function quote(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'");
  return `'${escaped}'`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
