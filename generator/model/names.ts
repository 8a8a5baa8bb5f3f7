/**
 * The one place identifiers are derived from spec names. Every name the
 * emitters print comes from here, so reserved words, leading digits,
 * non-ASCII letters, quotes and collisions are handled once.
 */
import type { Names } from './types.js';

/** Words that cannot be a binding name in strict-mode JavaScript or TypeScript. */
const RESERVED = new Set([
  'arguments', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger',
  'default', 'delete', 'do', 'else', 'enum', 'eval', 'export', 'extends', 'false', 'finally',
  'for', 'function', 'if', 'implements', 'import', 'in', 'instanceof', 'interface', 'let',
  'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'static', 'super',
  'switch', 'this', 'throw', 'true', 'try', 'typeof', 'undefined', 'var', 'void', 'while',
  'with', 'yield',
  // TypeScript type keywords and built-in type names that a generated type must not shadow
  'any', 'bigint', 'boolean', 'never', 'number', 'object', 'string', 'symbol', 'unknown',
  'type', 'keyof', 'infer', 'is', 'asserts', 'declare', 'namespace', 'module', 'readonly',
  'satisfies',
]);

/** Global names a generated PascalCase type or value must not shadow. */
const RESERVED_PASCAL = new Set([
  'Array', 'Blob', 'Boolean', 'Date', 'Error', 'File', 'FormData', 'Function', 'Headers',
  'Infinity', 'JSON', 'Map', 'Math', 'NaN', 'Number', 'Object', 'Omit', 'Partial', 'Pick',
  'Promise', 'Readonly', 'Record', 'RegExp', 'Request', 'Required', 'Response', 'Set',
  'String', 'Symbol', 'URL', 'Uint8Array',
]);

/** Device names some file systems refuse as a file base name. */
const RESERVED_FILE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * Splits a spec name into ASCII words: accents are stripped (`café` -> `cafe`),
 * other non-ASCII letters become `u<hex>` words, everything else separates.
 * `updateStream`, `update-stream` and `update_stream` give the same words.
 */
export function words(raw: string): string[] {
  // Plain ASCII (nearly every name) needs no Unicode normalisation.
  const ascii = !NON_ASCII.test(raw)
    ? raw
    : raw
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x00-\x7f]/gu, (ch) =>
      /[\p{L}\p{N}]/u.test(ch) ? ` u${ch.codePointAt(0)!.toString(16)} ` : ' ',
    );
  return ascii
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

const NON_ASCII = /[^\x00-\x7f]/;

const capitalise = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

function safeIdentifier(candidate: string, reserved: (id: string) => boolean): string {
  let id = candidate === '' ? '_' : candidate;
  if (/^[0-9]/.test(id)) id = `_${id}`;
  if (reserved(id)) id = `${id}_`;
  return id;
}

/** A name safe as a binding (a function or constant): reserved words get a `_` suffix, leading digits a `_` prefix. */
export function bindingName(candidate: string): string {
  return safeIdentifier(candidate, (id) => RESERVED.has(id));
}

export function camelName(raw: string): string {
  return camelOf(words(raw));
}

export function pascalName(raw: string): string {
  return pascalOf(words(raw));
}

export function fileName(raw: string): string {
  return fileOf(words(raw));
}

function camelOf([first = '', ...rest]: readonly string[]): string {
  return safeIdentifier(first + rest.map(capitalise).join(''), (id) => RESERVED.has(id));
}

function pascalOf(parts: readonly string[]): string {
  return safeIdentifier(parts.map(capitalise).join(''), (id) => RESERVED_PASCAL.has(id));
}

function fileOf(parts: readonly string[]): string {
  const base = parts.join('-') || '_';
  return RESERVED_FILE.test(base) ? `${base}_` : base;
}

/**
 * Derives names for a set of spec names that share one namespace. Collisions
 * get numeric suffixes (`getUser`, `getUser2`) given in the sorted order of the
 * raw names, so the result does not depend on the order names are passed in.
 */
export function deriveNames(raws: readonly string[]): Map<string, Names> {
  const taken = { camel: new Set<string>(), pascal: new Set<string>(), file: new Set<string>() };
  const unique = (set: Set<string>, base: string, sep: string): string => {
    let name = base;
    // Compare case-insensitively so two files never differ only by case.
    for (let n = 2; set.has(name.toLowerCase()); n++) name = `${base}${sep}${n}`;
    set.add(name.toLowerCase());
    return name;
  };
  const result = new Map<string, Names>();
  for (const raw of [...new Set(raws)].sort(compareStrings)) {
    const base = baseNames(raw);
    result.set(raw, {
      camel: unique(taken.camel, base.camel, ''),
      pascal: unique(taken.pascal, base.pascal, ''),
      file: unique(taken.file, base.file, '-'),
    });
  }
  return result;
}

/**
 * The names of one spec name before collisions are settled, remembered: a
 * large document derives the same property names for every object that has
 * them, and again for every `allOf` that merges such objects.
 */
const bases = new Map<string, Names>();

function baseNames(raw: string): Names {
  let base = bases.get(raw);
  if (base === undefined) {
    const parts = words(raw);
    base = { camel: camelOf(parts), pascal: pascalOf(parts), file: fileOf(parts) };
    // Bounded, for a long `--watch` session.
    if (bases.size >= 50_000) bases.clear();
    bases.set(raw, base);
  }
  return base;
}

/** Derives the names of one spec name that shares its namespace with nothing. */
export function namesOf(raw: string): Names {
  return deriveNames([raw]).get(raw)!;
}

/** What `types.ts` appends to an operation's `pascal` for its aliases (`GetMessageParams`, ...). */
export const OPERATION_TYPE_SUFFIXES = ['Params', 'Response', 'Responses', 'ErrorResponses', 'ResponseHeaders'] as const;

/**
 * The names of operations, by operationId: `deriveNames`, and then no two
 * operations' aliases alike. `getUser`'s `GetUserErrorResponses` is also
 * `getUserError`'s `GetUserErrorResponses`; taken in sorted order of their
 * ids, an operation whose aliases meet an earlier one's takes the first
 * `<Pascal>2`, `<Pascal>3`, ... whose aliases are all free (`GetUserError2`
 * for all its aliases and checks). Its function (`camel`) and file keep their names.
 */
export function operationNames(ids: readonly string[]): Map<string, Names> {
  const names = deriveNames(ids);
  const taken = new Set<string>();
  const aliases = (pascal: string) => OPERATION_TYPE_SUFFIXES.map((suffix) => `${pascal}${suffix}`);
  const pascals = new Set([...names.values()].map((n) => n.pascal.toLowerCase()));
  const free = (pascal: string, own: string) => (pascal === own || !pascals.has(pascal.toLowerCase())) && aliases(pascal).every((alias) => !taken.has(alias));
  for (const id of [...names.keys()].sort(compareStrings)) {
    const own = names.get(id)!;
    let pascal = own.pascal;
    for (let n = 2; !free(pascal, own.pascal); n++) pascal = `${own.pascal}${n}`;
    if (pascal !== own.pascal) {
      names.set(id, { ...own, pascal });
      pascals.add(pascal.toLowerCase());
    }
    for (const alias of aliases(pascal)) taken.add(alias);
  }
  return names;
}

/**
 * Every other name `types.ts` declares or refers to, which a schema's named
 * type must not take: openapi-typescript's roots and helpers (`WithRequired`,
 * and the read/write markers), the module's fixed aliases, and the global
 * types its aliases use that `RESERVED_PASCAL` does not already keep out.
 */
export const TYPES_MODULE_NAMES: readonly string[] = [
  'paths', 'webhooks', 'components', 'operations', '$defs',
  'WithRequired', '$Read', '$Write', 'Readable', 'Writable',
  'UploadFile', 'ErrorBody', 'ErrorCode', 'LowerCaseKeys',
  'NonNullable', 'Lowercase',
];

/**
 * The named type of each component schema in `types.ts`, by raw schema name.
 * A schema keeps its `pascal` name (already unique among schemas) unless
 * that is an operation alias (`<Op>Params`, `<Op>Response`, ...) or another
 * name of the module (`TYPES_MODULE_NAMES`): aliases never move, since the
 * other targets and users import them. A schema that must yield takes the
 * first `<Pascal>2`, `<Pascal>3`, ... that no name of the module and no other
 * schema's type has, schemas taken in sorted order of their raw names, so
 * the result does not depend on input order and a schema whose name is free
 * never moves.
 */
export function schemaTypeNames(
  schemas: readonly { name: string; names: Pick<Names, 'pascal'> }[],
  operations: readonly Pick<Names, 'pascal'>[],
): Map<string, string> {
  const taken = new Set<string>(TYPES_MODULE_NAMES);
  for (const { pascal } of operations) for (const suffix of OPERATION_TYPE_SUFFIXES) taken.add(`${pascal}${suffix}`);
  const sorted = [...schemas].sort((a, b) => compareStrings(a.name, b.name));
  const yielding = sorted.filter((s) => taken.has(s.names.pascal));
  const result = new Map<string, string>();
  for (const schema of sorted) {
    if (taken.has(schema.names.pascal)) continue;
    result.set(schema.name, schema.names.pascal);
  }
  for (const type of result.values()) taken.add(type);
  for (const schema of yielding) {
    let n = 2;
    while (taken.has(`${schema.names.pascal}${n}`)) n++;
    const type = `${schema.names.pascal}${n}`;
    taken.add(type);
    result.set(schema.name, type);
  }
  return result;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property key as printed in generated code: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Code-unit order, independent of locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A local variable name: the words joined by `_` in lower case (`profileData` -> `profile_data`). */
export function snakeName(raw: string): string {
  return safeIdentifier(words(raw).join('_'), (id) => RESERVED.has(id));
}

/** A module-level constant name: the words joined by `_` in upper case (`OwnUser` + `KEYS` -> `OWN_USER_KEYS`). */
export function constantName(raw: string): string {
  return safeIdentifier(words(raw).join('_').toUpperCase(), () => false);
}
