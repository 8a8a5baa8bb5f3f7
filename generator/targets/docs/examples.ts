import type { Operation, Parameter } from '../../model/types.js';

/** The reference server of `npm start` and the example organization's owner (docs/decisions/0002). */
export const EXAMPLE_ORIGIN = 'http://127.0.0.1:9991';
export const EXAMPLE_EMAIL = 'owner@example.com';

/** The value of the operation's first request example (empty when it has none). */
function firstExample(operation: Operation): Record<string, unknown> {
  const value = operation.requestExamples[0]?.value;
  return isRecord(value) ? value : {};
}

/** The key of a parameter in the params object (its wire name unless two parameters share it). */
export function parameterKey(parameter: Parameter): string {
  return (parameter as Parameter & { key?: string }).key ?? parameter.name;
}

/** Parameter values of the operation's first request example (empty when it has none). */
export function exampleArguments(operation: Operation): [Parameter, unknown][] {
  const given = firstExample(operation);
  return operation.parameters
    .filter((parameter) => Object.hasOwn(given, parameterKey(parameter)))
    .map((parameter) => [parameter, given[parameterKey(parameter)]]);
}

/** A whole request body's example value (`requestBody.parameterName` of the first example), if any. */
export function exampleBody(operation: Operation): { present: boolean; value: unknown } {
  const body = operation.requestBody;
  if (body?.mode !== 'whole') return { present: false, value: undefined };
  const key = body.parameterName ?? 'body';
  const given = firstExample(operation);
  if (Object.hasOwn(given, key)) return { present: true, value: given[key] };
  const fromContent = body.contents[0]?.examples[0];
  return fromContent === undefined ? { present: false, value: undefined } : { present: true, value: fromContent.value };
}

/** A parameter value as its form field carries it (DESIGN.md "Wire format"). */
export function wireValue(parameter: Parameter, value: unknown): string {
  if (parameter.encoding === 'json') return JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function scalarText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Name/value pairs of a query (or cookie) parameter as its style writes them:
 * `form` (exploded: one pair per item or key), `spaceDelimited`,
 * `pipeDelimited`, `deepObject` (`name[key]`); JSON text for `json` ones.
 */
export function stylePairs(parameter: Parameter, value: unknown): [string, string][] {
  const { name } = parameter;
  if (parameter.encoding !== 'plain' || parameter.style === undefined) return [[name, wireValue(parameter, value)]];
  const explode = parameter.explode ?? parameter.style === 'form';
  if (parameter.style === 'deepObject' && (Array.isArray(value) || isRecord(value))) return bracketPairs(name, value);
  if (Array.isArray(value)) {
    const items = value.map(scalarText);
    // Exploded lists repeat the name in every style, as the client writes them.
    if (explode) return items.map((item) => [name, item]);
    const separator = parameter.style === 'spaceDelimited' ? ' ' : parameter.style === 'pipeDelimited' ? '|' : ',';
    return [[name, items.join(separator)]];
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([key, item]) => [key, scalarText(item)] as [string, string]);
    if (parameter.style === 'deepObject') return entries.map(([key, item]) => [`${name}[${key}]`, item]);
    if (explode) return entries;
    return [[name, entries.flat().join(',')]];
  }
  return [[name, scalarText(value)]];
}

/** `deepObject` in bracket notation, nested: `items[0][price]`, lists indexed (as the client writes them). */
function bracketPairs(prefix: string, value: Record<string, unknown> | unknown[]): [string, string][] {
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  return entries.flatMap(([key, item]): [string, string][] =>
    Array.isArray(item) || isRecord(item) ? bracketPairs(`${prefix}[${key}]`, item) : [[`${prefix}[${key}]`, item === null ? '' : scalarText(item)]],
  );
}

/** A path or header parameter's text in `simple` (or path `label`/`matrix`) style. */
export function simpleText(parameter: Parameter, value: unknown): string {
  if (parameter.encoding !== 'plain') return wireValue(parameter, value);
  const explode = parameter.explode ?? false;
  let items: string[];
  if (Array.isArray(value)) items = value.map(scalarText);
  else if (isRecord(value)) {
    const entries = Object.entries(value).map(([key, item]) => [key, scalarText(item)]);
    items = explode ? entries.map(([key, item]) => `${key}=${item}`) : entries.flat();
  } else items = [scalarText(value)];
  switch (parameter.style) {
    case 'label':
      return `.${items.join(explode ? '.' : ',')}`;
    case 'matrix':
      return Array.isArray(value) && explode
        ? items.map((item) => `;${parameter.name}=${item}`).join('')
        : `;${parameter.name}=${items.join(',')}`;
    default:
      return items.join(',');
  }
}

/** The file name a file parameter's example names, for `-F name=@file` and the client's `UploadFile`. */
export function exampleFileName(value: unknown): string {
  if (typeof value !== 'string') return 'file.bin';
  // A binary example is often prose about the file ("contents of notes.pdf"): take the name in it.
  if (/^[\w./-]+$/.test(value)) return value;
  return /[\w-]+\.[A-Za-z0-9]+/.exec(value)?.[0] ?? 'file.bin';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
