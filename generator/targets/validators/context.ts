import type { ApiModel, NamedSchema, RefSchema, Schema } from '../../model/types.js';
import { commentText } from './code.js';

/** Temporary variable names, unique within one generated function. */
export class Scope {
  private readonly counts = new Map<string, number>();

  next(prefix: string): string {
    const n = (this.counts.get(prefix) ?? 0) + 1;
    this.counts.set(prefix, n);
    return `${prefix}${n}`;
  }
}

/** One generated check function: `(v, out, all, strict) => void`. */
export interface CheckFunction {
  name: string;
  comment: string;
  body: string[];
}

/** Builds the body of a check function for `schema`, reading its argument `v`. */
export type FunctionBuilder = (schema: Schema, ctx: EmitContext, scope: Scope) => string[];

/**
 * State shared while emitting one validators module: hoisted constants
 * (deduplicated by their code), and the check functions emitted so far
 * (one per named schema, one per union variant that needs its own).
 */
export class EmitContext {
  private readonly named: Map<string, NamedSchema>;
  private readonly constantNames = new Map<string, string>();
  private readonly constantCounts = new Map<string, number>();
  private readonly helpers = new Set<string>();
  private readonly namedFunctions = new Map<string, CheckFunction | undefined>();
  readonly constants: string[] = [];
  /** Degraded constructs, each `file:line: message`, for the target to report. */
  readonly warnings: string[] = [];
  readonly variantFunctions: CheckFunction[] = [];
  private variantCount = 0;

  constructor(
    readonly model: ApiModel,
    private readonly buildBody: FunctionBuilder,
  ) {
    this.named = new Map(model.schemas.map((s) => [s.name, s]));
    this.repeated = repeatedShapes(model);
  }

  /** Notes a construct the output cannot express, degraded; reported once. */
  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** Structural keys of large inline schemas written more than once (big documents repeat nested objects inline). */
  private readonly repeated: Set<string>;
  private readonly sharedFunctions = new Map<string, string>();
  private readonly building = new Set<Schema>();
  private sharedCount = 0;

  /**
   * The function shared by every copy of a large inline schema that the
   * document writes more than once, or undefined when `schema` is not one
   * (or is the one whose function is being built).
   */
  sharedFunction(schema: Schema): string | undefined {
    if (this.repeated.size === 0 || this.building.has(schema)) return undefined;
    const key = shapeKey(schema);
    if (key === undefined || !this.repeated.has(key)) return undefined;
    const existing = this.sharedFunctions.get(key);
    if (existing !== undefined) return existing;
    this.sharedCount += 1;
    const fnName = `shared${this.sharedCount}`;
    this.sharedFunctions.set(key, fnName);
    const fn: CheckFunction = { name: fnName, comment: 'A shape the document writes inline in several places.', body: [] };
    this.variantFunctions.push(fn);
    this.functionSchemas.set(fnName, schema);
    this.building.add(schema);
    fn.body = this.buildBody(schema, this, new Scope());
    this.building.delete(schema);
    return fnName;
  }

  namedSchema(name: string): NamedSchema {
    const found = this.named.get(name);
    if (found === undefined) throw new Error(`reference to unknown schema "${name}"`);
    return found;
  }

  /** Follows `ref` nodes to the schema they name (a ref cycle without structure accepts anything). */
  resolve(schema: Schema): Exclude<Schema, RefSchema> {
    const seen = new Set<string>();
    let current = schema;
    while (current.kind === 'ref') {
      if (seen.has(current.name)) return { kind: 'any' };
      seen.add(current.name);
      current = this.namedSchema(current.name).schema;
    }
    return current;
  }

  private chunkCount = 0;

  /** A module-level helper function `const chunkN = <signature> => { body };` holding part of a long check. */
  chunkFunction(signature: string, body: string[]): string {
    const name = `chunk${++this.chunkCount}`;
    this.constants.push([`const ${name} = ${signature} => {`, ...body.map((line) => `  ${line}`), '};'].join('\n'));
    return name;
  }

  /** A module-level helper `const name = init;`, emitted once however often it is used. */
  helper(name: string, init: string): string {
    if (!this.helpers.has(name)) {
      this.helpers.add(name);
      this.constants.push(`const ${name} = ${init};`);
    }
    return name;
  }

  /** A module-level `const` holding `init`, shared by every check that needs the same value. */
  constant(prefix: string, init: string): string {
    const existing = this.constantNames.get(init);
    if (existing !== undefined) return existing;
    const n = (this.constantCounts.get(prefix) ?? 0) + 1;
    this.constantCounts.set(prefix, n);
    const name = `${prefix}_${n}`;
    this.constantNames.set(init, name);
    this.constants.push(`const ${name} = ${init};`);
    return name;
  }

  /** The check function of a named schema, emitted on first use. */
  schemaFunction(name: string): string {
    const schema = this.namedSchema(name);
    const fnName = `schema${schema.names.pascal}`;
    if (!this.namedFunctions.has(name)) {
      this.namedFunctions.set(name, undefined); // placeholder: recursive references resolve to fnName
      this.functionSchemas.set(fnName, schema.schema);
      this.testNames.set(schema.schema, `matches${schema.names.pascal}`);
      const body = this.buildBody(schema.schema, this, new Scope());
      this.namedFunctions.set(name, { name: fnName, comment: `Schema ${commentText(schema.name)}.`, body });
    }
    return fnName;
  }

  /** A check function of its own for one variant of a union (tried in order at run time). */
  variantFunction(schema: Schema, owner: string): string {
    this.variantCount += 1;
    const fnName = `variant${this.variantCount}`;
    const fn: CheckFunction = { name: fnName, comment: commentText(owner), body: [] };
    this.variantFunctions.push(fn);
    this.functionSchemas.set(fnName, schema);
    fn.body = this.buildBody(schema, this, new Scope());
    return fnName;
  }

  /** What each check function made here checks (named, shared and variant functions), for its predicate. */
  private readonly functionSchemas = new Map<string, Schema>();
  /** Predicate functions by the schema node they test; names reserved for named schemas. */
  private readonly tests = new Map<Schema, string>();
  private readonly testNames = new Map<Schema, string>();
  private testCount = 0;

  /** The schema a check function made by this context checks. */
  functionSchema(fnName: string): Schema {
    const schema = this.functionSchemas.get(fnName);
    if (schema === undefined) throw new Error(`no schema recorded for check function ${fnName}`);
    return schema;
  }

  /**
   * A module-level predicate `(v, strict) => boolean` for `schema`, true
   * exactly when its check records no failure: the same checks, returning
   * `false` at the first failure, with no failure records, paths or
   * messages. Emitted once per schema node; `build` writes its body (the
   * check with a sink whose failure is `return false;`).
   */
  testFunction(schema: Schema, build: (schema: Schema, ctx: EmitContext, scope: Scope) => string[]): string {
    const existing = this.tests.get(schema);
    if (existing !== undefined) return existing;
    const name = this.testNames.get(schema) ?? `matches${++this.testCount}`;
    this.tests.set(schema, name); // placeholder: recursive schemas call the function being built
    const slot = this.constants.push('') - 1;
    // While its own predicate is built, a repeated shape is checked inline rather than through its shared function.
    const added = !this.building.has(schema);
    if (added) this.building.add(schema);
    const body = build(schema, this, new Scope());
    if (added) this.building.delete(schema);
    this.constants[slot] = [`const ${name} = (v: unknown, strict: boolean): boolean => {`, ...body.map((line) => `  ${line}`), '};'].join('\n');
    return name;
  }

  /** Named-schema functions sorted by name, then union variants in emission order. */
  functions(): CheckFunction[] {
    const named = [...this.namedFunctions.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, fn]) => fn!);
    return [...named, ...this.variantFunctions];
  }
}

/** Nodes below which an inline schema is worth a function of its own when repeated. */
const SHARE_WEIGHT = 12;
const ANNOTATION_KEYS = new Set(['description', 'title', 'examples', 'deprecated', 'featureLevel', 'changes', 'unspecified', 'readOnly', 'writeOnly', 'refName']);
const keys = new WeakMap<Schema, string | undefined>();

/** Direct sub-schemas of a node, not through refs. */
function children(schema: Schema): Schema[] {
  const list: Schema[] = [...(schema.allOf ?? []), ...(schema.not ? [schema.not] : [])];
  switch (schema.kind) {
    case 'object':
      list.push(...schema.properties.map((p) => p.schema), ...(schema.patternProperties ?? []).map((p) => p.schema));
      if (typeof schema.additionalProperties === 'object') list.push(schema.additionalProperties);
      if (schema.propertyNames) list.push(schema.propertyNames);
      break;
    case 'array':
      list.push(...(schema.prefixItems ?? []), ...(schema.items ? [schema.items] : []), ...(schema.contains ? [schema.contains] : []));
      break;
    case 'union':
      list.push(...schema.variants);
      break;
    default:
      break;
  }
  return list;
}

function weight(schema: Schema): number {
  return 1 + children(schema).reduce((sum, child) => sum + weight(child), 0);
}

/** What a schema checks, as text (annotations left out); undefined for small or scalar nodes. */
function shapeKey(schema: Schema): string | undefined {
  if (keys.has(schema)) return keys.get(schema);
  let key: string | undefined;
  if ((schema.kind === 'object' || schema.kind === 'union' || schema.kind === 'array') && weight(schema) >= SHARE_WEIGHT) {
    key = JSON.stringify(schema, (k, v: unknown) => (ANNOTATION_KEYS.has(k) || k === 'names' ? undefined : v));
  }
  keys.set(schema, key);
  return key;
}

/** Keys of large inline shapes that occur at least twice in the model. */
function repeatedShapes(model: ApiModel): Set<string> {
  const counts = new Map<string, number>();
  const visit = (schema: Schema, top: boolean): void => {
    const key = top ? undefined : shapeKey(schema);
    if (key !== undefined) {
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      // Repeats of a repeated shape are counted once; what is inside it is already counted.
      if (n > 1) return;
    }
    for (const child of children(schema)) visit(child, false);
  };
  for (const named of model.schemas) visit(named.schema, true);
  for (const operation of model.operations) {
    visit(operation.success.schema, false);
    for (const parameter of operation.parameters) visit(parameter.schema, false);
  }
  return new Set([...counts].filter(([, n]) => n > 1).map(([key]) => key));
}
