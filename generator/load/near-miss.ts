/**
 * Near-miss documents: shapes that break a rule of OpenAPI or JSON Schema
 * but say plainly what they mean are rewritten, in place, to what they mean,
 * with one note per shape (`file:line: ...`, the first place, and how many
 * more). Runs before the 3.0 -> 3.1 rewrite, so the rest of the loader and
 * the model see a valid document. Shapes whose meaning is not plain are
 * left alone: the model then refuses them with file and line as before.
 * The list, and what other generators do with each shape:
 * docs/decisions/0006-input-dialects.md.
 */
import { formatLocation } from './errors.js';
import type { SourceMap } from './source-map.js';
import { forEachSchema, isRecord } from './walk.js';

type Node = Record<string, unknown>;

/** Where a schema may be left out without changing what it accepts: a `null` there means no schema. */
const NULLABLE_SLOTS = new Set(['schema', 'items', 'additionalProperties']);
/** Name maps of a schema whose `null` values mean "any value" for that name. */
const NULLABLE_MAPS = ['properties', 'patternProperties'];

/** Parameter keywords of OpenAPI 2.0 that belong in the parameter's `schema` since 3.0. */
const PARAMETER_SCHEMA_KEYWORDS = [
  'type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf',
];

/** Keywords that only describe: the 3.0 rewrite (normalise.ts) keeps them beside a `$ref` and drops the rest. */
export const REF_SIBLINGS = new Set(['$ref', 'description', 'summary', 'title', 'deprecated', 'readOnly', 'writeOnly', 'example', 'examples', 'default', 'externalDocs', 'xml', 'nullable']);

/** Keys an Example Object may have. */
const EXAMPLE_KEYS = new Set(['summary', 'description', 'value', 'externalValue', '$ref']);

/** One note per shape: the first place it was seen and how many places in all. */
class Notes {
  private readonly shapes = new Map<string, { at: string; count: number }>();

  constructor(private readonly sources: SourceMap) {}

  add(shape: string, node: object, key: string | undefined): void {
    const known = this.shapes.get(shape);
    if (known) known.count += 1;
    else this.shapes.set(shape, { at: formatLocation(this.sources.locate(node, key)), count: 1 });
  }

  lines(): string[] {
    return [...this.shapes].map(([shape, { at, count }]) => `${at}: ${shape}${count > 1 ? ` (and ${count - 1} more place${count === 2 ? '' : 's'})` : ''}`);
  }
}

/** Rewrites the near misses of `document` (version as written) and returns one note per shape found. */
export function repairNearMisses(document: Node, sources: SourceMap, version: string): string[] {
  const notes = new Notes(sources);
  const legacy = version.startsWith('3.0');
  nullSchemas(document, sources, notes);
  parametersWithoutSchema(document, sources, notes);
  mediaExamples(document, sources, notes);
  forEachSchema(document, (schema) => {
    requiredFlags(schema, notes);
    if (schema.enum !== undefined && !Array.isArray(schema.enum)) {
      notes.add('`enum` is not a list: it is ignored, so the values are not limited', schema, 'enum');
      delete schema.enum;
    }
    if (legacy && Array.isArray(schema.type)) {
      notes.add('`type` is a list, which OpenAPI 3.0 does not allow: read as in 3.1 (a value of any of those types)', schema, 'type');
    }
    if (legacy && schema.type === 'array' && schema.items === undefined) {
      notes.add('`type: array` without `items`, which OpenAPI 3.0 requires: items of any type', schema, 'type');
    }
    if (legacy && typeof schema.$ref === 'string') {
      const dropped = Object.keys(schema).filter((key) => !REF_SIBLINGS.has(key) && !key.startsWith('x-'));
      if (dropped.length > 0) {
        notes.add(`keywords beside a \`$ref\` (${dropped.map((k) => `\`${k}\``).join(', ')}) are ignored, as OpenAPI 3.0 says`, schema, dropped[0]);
      }
    }
  });
  return notes.lines();
}

/**
 * `schema: null` (a media type, parameter or header), and `null` as a
 * property's schema, `items` or `additionalProperties`: no schema there, so
 * any value. `null` in `allOf`/`anyOf`/`oneOf` or `not` is left to fail:
 * it might mean "no constraint" or "the value null".
 */
function nullSchemas(document: Node, sources: SourceMap, notes: Notes): void {
  forEachSchema(
    document,
    () => undefined,
    (holder, key, keyword) => {
      if (!NULLABLE_SLOTS.has(keyword) && !NULLABLE_MAPS.includes(keyword)) return;
      const empty: Node = {};
      sources.alias(empty, holder);
      (holder as Node)[key] = empty;
      const what = NULLABLE_MAPS.includes(keyword) ? `the schema of \`${key}\`` : `\`${key}\``;
      notes.add(`${what} is null: read as a schema that accepts any value`, holder, key);
    },
  );
}

/**
 * `required: true` on a property's schema (the OpenAPI 2.0 / JSON Schema
 * draft 3 form): the property is required, so its name joins the object's
 * `required` list. `required: false` says the default and goes; a flag
 * anywhere else says nothing about a property and goes too.
 */
function requiredFlags(schema: Node, notes: Notes): void {
  const names: string[] = [];
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!isRecord(property) || typeof property.required !== 'boolean') continue;
      if (property.required) {
        names.push(name);
        notes.add('`required: true` on a property (the OpenAPI 2.0 form): read as the property being listed in its object\'s `required`', property, 'required');
      } else {
        notes.add('`required: false` on a property (the OpenAPI 2.0 form): properties are optional unless listed in `required`; ignored', property, 'required');
      }
      delete property.required;
    }
  }
  if (typeof schema.required === 'boolean') {
    notes.add('`required` is true or false outside a property\'s schema, where it names no property: ignored', schema, 'required');
    delete schema.required;
  }
  if (names.length === 0) return;
  if (schema.required === undefined) schema.required = names;
  else if (Array.isArray(schema.required)) schema.required = [...schema.required, ...names.filter((name) => !(schema.required as unknown[]).includes(name))];
}

/**
 * A parameter with neither `schema` nor `content`: its OpenAPI 2.0 keywords
 * (`type`, `format`, `items`, `enum`, limits) become its `schema`; without
 * any, it takes any value.
 */
function parametersWithoutSchema(document: Node, sources: SourceMap, notes: Notes): void {
  const fix = (parameter: unknown): void => {
    if (!isRecord(parameter) || typeof parameter.$ref === 'string' || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') return;
    if (parameter.schema !== undefined || parameter.content !== undefined) return;
    const schema: Node = {};
    sources.alias(schema, parameter);
    const moved = PARAMETER_SCHEMA_KEYWORDS.filter((key) => parameter[key] !== undefined);
    for (const key of moved) {
      schema[key] = parameter[key];
      delete parameter[key];
    }
    parameter.schema = schema;
    notes.add(
      moved.length > 0
        ? `parameter \`${parameter.name}\` has no \`schema\` but the OpenAPI 2.0 keywords ${moved.map((k) => `\`${k}\``).join(', ')}: read as its \`schema\``
        : `parameter \`${parameter.name}\` has neither \`schema\` nor \`content\`: read as taking any value`,
      parameter,
      undefined,
    );
  };
  const components = isRecord(document.components) ? document.components : {};
  if (isRecord(components.parameters)) Object.values(components.parameters).forEach(fix);
  for (const item of Object.values(isRecord(document.paths) ? document.paths : {})) {
    if (!isRecord(item)) continue;
    for (const holder of [item, ...Object.values(item)]) {
      if (isRecord(holder) && Array.isArray(holder.parameters)) holder.parameters.forEach(fix);
    }
  }
}

/** Keys whose values are schemas or data, where no media type, parameter or header sits. */
const NOT_STRUCTURE = new Set(['schema', 'schemas', 'example', 'examples', 'default', 'enum', 'const', 'value']);

/**
 * `examples` of a media type, parameter or header written as a list of
 * values, or as a map of bare values, instead of a map of Example Objects:
 * each value becomes an Example Object (`example-1`, ... for a list). Those
 * objects are found by where they sit (a `content` or `headers` map, a
 * `parameters` list or map), never by their keys, which a schema's
 * properties could share.
 */
function mediaExamples(document: Node, sources: SourceMap, notes: Notes): void {
  // A Set, as in walk.ts: it lives only for the walk, and V8 adds and finds in it faster than in a WeakSet.
  const seen = new Set<object>();
  const visit = (node: unknown, holder: boolean): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((child) => visit(child, false));
      return;
    }
    const record = node as Node;
    if (holder && typeof record.$ref !== 'string') repairExamples(record, sources, notes);
    // for...in rather than Object.entries: no array per object (parsed JSON and YAML have no inherited keys).
    for (const key in record) {
      if (key.startsWith('x-') || NOT_STRUCTURE.has(key)) continue;
      const value = record[key];
      // Text, numbers and flags hold nothing: no call for them.
      if (value === null || typeof value !== 'object') continue;
      const holders = key === 'content' || key === 'headers' ? (isRecord(value) ? Object.values(value) : []) : key === 'parameters' ? (Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : []) : undefined;
      if (holders === undefined) visit(value, false);
      else holders.forEach((child) => visit(child, true));
    }
  };
  visit(document, false);
}

function repairExamples(holder: Node, sources: SourceMap, notes: Notes): void {
  const tied = <T extends object>(made: T): T => {
    sources.alias(made, holder);
    return made;
  };
  if (Array.isArray(holder.examples)) {
    notes.add('`examples` is a list of values; OpenAPI wants a map of Example Objects: read as examples named `example-1`, `example-2`, ...', holder, 'examples');
    holder.examples = tied(Object.fromEntries(holder.examples.map((value, i) => [`example-${i + 1}`, tied({ value })])));
    return;
  }
  if (!isRecord(holder.examples)) return;
  const examples = holder.examples;
  for (const [name, example] of Object.entries(examples)) {
    const keys = isRecord(example) ? Object.keys(example) : [];
    const bare = !isRecord(example) || (keys.length > 0 && keys.every((key) => !EXAMPLE_KEYS.has(key) && !key.startsWith('x-')));
    if (!bare) continue;
    notes.add(`example \`${name}\` is a bare value, not an Example Object: read as its \`value\``, examples, name);
    examples[name] = tied({ value: example });
  }
}
