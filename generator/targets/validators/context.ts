import type { ApiModel, NamedSchema, RefSchema, Schema } from '../../model/types.js';
import * as validatorsRuntime from '../../../runtime/validators-runtime/index.js';
import { compareStrings, constantName, snakeName } from '../../model/names.js';
import { parameterList, print, type Param, type Stmt } from './builder.js';
import { commentText } from './code.js';

/** The runtime module's exports, by name: what generated code may import from `./validators-runtime/index.js`. */
export type RuntimeName = Exclude<keyof typeof validatorsRuntime, 'default'>;

/** Types of the runtime module that generated code names. */
export type RuntimeType = 'Decoded' | 'Failure' | 'HeadersLike' | 'HeaderTable' | 'Issue' | 'JsonCursor' | 'RawRequest' | 'ResponseCheck' | 'ResponseTable' | 'StandardSchemaV1' | 'ValidateOptions';

/** Names a check function uses for its own purposes: its parameters. */
const CHECK_LOCALS = ['v', 'out', 'all', 'strict'];

/** The parameters of a check function `(v, out, all, strict) => void`. */
export const CHECK_PARAMS: readonly Param[] = [['v', 'unknown'], ['out', 'Failure[]'], ['all', 'boolean'], ['strict', 'boolean']];

/** The parameters of a predicate `(v, strict) => boolean`. */
const PREDICATE_PARAMS: readonly Param[] = [['v', 'unknown'], ['strict', 'boolean']];

/** Names a decoder uses for its own purposes: its parameter, result, count of fields read and the steps of each parameter. */
export const DECODER_LOCALS = ['raw', 'value', 'given', 'w', 'x', 'l', 'f', 't', 'c', 'r'];

/** Module-level names of one generated file: a base as asked, else with `_2`, `_3`, ... in the order asked. */
export class FileNames {
  private readonly taken = new Set<string>();

  unique(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}

/**
 * Local names of one generated function, named after what they hold
 * (`user`, `user_role`); a second local of one name gets `_2`. Locals are
 * lower-case words joined by `_`, so they never meet module-level names
 * (camelCase functions, upper-case constants) except the runtime's
 * one-word helpers, which are reserved here.
 */
export class Scope {
  private readonly taken: Set<string>;

  constructor(
    fixed: readonly string[] = CHECK_LOCALS,
    private readonly parent?: Scope,
  ) {
    this.taken = new Set(parent === undefined ? [...fixed, ...Object.keys(validatorsRuntime)] : fixed);
  }

  /** The scope of a block inside this one: its names are its own, and never those of an enclosing block. */
  child(): Scope {
    return new Scope([], this);
  }

  private has(name: string): boolean {
    return this.taken.has(name) || (this.parent?.has(name) ?? false);
  }

  local(base: string): string {
    let name = base;
    for (let n = 2; this.has(name); n++) name = `${base}_${n}`;
    this.taken.add(name);
    return name;
  }
}

/** The local holding a part of `value` (a property, an item): named after the part, under its parent's name. */
export function partLocal(scope: Scope, value: string, part: string): string {
  const word = snakeName(part);
  return scope.local(value === 'v' || value === 'x' ? word : `${value}_${word}`);
}

/** One generated check function: `(v, out, all, strict) => void`. */
export interface CheckFunction {
  name: string;
  comment: string;
  body: Stmt[];
}

/** Builds the body of a check function for `schema`, reading its argument `v`; `label` names what it checks. */
export type FunctionBuilder = (schema: Schema, ctx: EmitContext, scope: Scope, label: string) => Stmt[];

/**
 * State shared while emitting one validators module: module-level names,
 * hoisted constants (deduplicated by their code, named after their first
 * owner), the runtime helpers used, and the check functions emitted so far
 * (one per named schema, one per large shape the document repeats inline).
 */
export class EmitContext {
  readonly names = new FileNames();
  private readonly named: Map<string, NamedSchema>;
  private readonly constantNames = new Map<string, string>();
  private readonly helpers = new Set<string>();
  private readonly used = new Set<RuntimeName>();
  private readonly namedFunctions = new Map<string, CheckFunction | undefined>();
  /** Module-level declarations in the order they were first needed. */
  readonly constants: string[] = [];
  /** Degraded constructs, each `file:line: message`, for the target to report. */
  readonly warnings: string[] = [];
  readonly sharedChecks: CheckFunction[] = [];
  /** Function names of named schemas, decided before anything else so that nothing else can take them. */
  private readonly schemaNames = new Map<string, { check: string; test: string }>();

  constructor(
    readonly model: ApiModel,
    private readonly builders: { check: FunctionBuilder; test: FunctionBuilder },
  ) {
    this.named = new Map(model.schemas.map((s) => [s.name, s]));
    this.repeated = repeatedShapes(model);
    for (const schema of [...model.schemas].sort((a, b) => compareStrings(a.name, b.name))) {
      this.schemaNames.set(schema.name, { check: this.names.unique(`check${schema.names.pascal}`), test: this.names.unique(`matches${schema.names.pascal}`) });
    }
  }

  /** A runtime helper the generated code calls: its name, now among the module's imports. */
  use(name: RuntimeName): string {
    this.used.add(name);
    return name;
  }

  /** The runtime helpers used, sorted. */
  runtimeImports(): string[] {
    return [...this.used].sort(compareStrings);
  }

  private readonly usedTypes = new Set<RuntimeType>();

  /** A runtime type the generated code names: its name, now among the module's type imports. */
  useType(name: RuntimeType): string {
    this.usedTypes.add(name);
    return name;
  }

  /** The runtime types used, sorted. */
  runtimeTypeImports(): string[] {
    return [...this.usedTypes].sort(compareStrings);
  }

  /** Notes a construct the output cannot express, degraded; reported once. */
  warn(message: string): void {
    if (!this.warnings.includes(message)) this.warnings.push(message);
  }

  /** Structural keys of large inline schemas written more than once (big documents repeat nested objects inline). */
  private readonly repeated: Set<string>;
  /** Each repeated shape met so far: the first copy met and its label, and its check function once one is asked for. */
  private readonly sharedShapes = new Map<string, { schema: Schema; label: string; check?: string }>();
  private readonly building = new Set<Schema>();

  /** The shared entry of a large inline schema written more than once, or undefined (see `sharedFunction`). */
  private sharedShape(schema: Schema, label: string): { schema: Schema; label: string; check?: string } | undefined {
    if (this.repeated.size === 0 || this.building.has(schema)) return undefined;
    const key = shapeKey(schema);
    if (key === undefined || !this.repeated.has(key)) return undefined;
    let shape = this.sharedShapes.get(key);
    if (shape === undefined) {
      shape = { schema, label };
      this.sharedShapes.set(key, shape);
    }
    return shape;
  }

  /**
   * The function shared by every copy of a large inline schema that the
   * document writes more than once, or undefined when `schema` is not one
   * (or is the one whose function is being built). It is named after the
   * first place that meets the shape.
   */
  sharedFunction(schema: Schema, label: string): string | undefined {
    const shape = this.sharedShape(schema, label);
    if (shape === undefined) return undefined;
    if (shape.check !== undefined) return shape.check;
    const fnName = this.names.unique(`check${shape.label}`);
    shape.check = fnName;
    const fn: CheckFunction = { name: fnName, comment: 'A shape the document writes inline in several places.', body: [] };
    this.sharedChecks.push(fn);
    this.functionSchemas.set(fnName, { schema: shape.schema, label: shape.label });
    this.building.add(shape.schema);
    fn.body = this.builders.check(shape.schema, this, new Scope(), shape.label);
    this.building.delete(shape.schema);
    return fnName;
  }

  /**
   * The predicate shared by every copy of such a schema, or undefined as for
   * `sharedFunction`; its check function is made only where a check calls it,
   * so a shape only predicates meet has none.
   */
  sharedPredicate(schema: Schema, label: string): string | undefined {
    const shape = this.sharedShape(schema, label);
    return shape === undefined ? undefined : this.testFunction(shape.schema, shape.label);
  }

  /** The named schema whose node `schema` is (a response the model resolved to the schema it names), if any. */
  namedOf(schema: Schema): NamedSchema | undefined {
    if (schema.kind === 'ref') return this.named.get(schema.name);
    this.byNode ??= new Map(this.model.schemas.map((s) => [s.schema, s]));
    return this.byNode.get(schema);
  }

  private byNode: Map<Schema, NamedSchema> | undefined;

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

  /** Reserves a module-level slot for a declaration written later (a function that may call itself). */
  declare(): number {
    return this.constants.push('') - 1;
  }

  define(slot: number, text: string): void {
    this.constants[slot] = text;
  }

  /** A module-level function `const name = <signature> => { body };` holding part of a long check. */
  partFunction(base: string, params: readonly Param[], returns: string, body: Stmt[], exit: string): string {
    const name = this.names.unique(base);
    this.constants.push([`const ${name} = (${parameterList(params, body)}): ${returns} => {`, ...print(body, exit, 1), '};'].join('\n'));
    return name;
  }

  /** A module-level helper `const name = init;` (an arrow function), emitted once however often it is used. */
  helper(name: string, init: string): string {
    if (!this.helpers.has(name)) {
      this.helpers.add(name);
      this.names.unique(name);
      this.constants.push(`const ${name} = ${init};`);
    }
    return name;
  }

  /**
   * A module-level `const` holding `init`, shared by every check that needs
   * the same value and named after the first (`base`, upper case). A `call`
   * (`new Set(...)`, a runtime helper) is marked pure, so that a bundler
   * drops it with the checks that use it.
   */
  constant(base: string, init: string, kind: 'value' | 'call' = 'value'): string {
    const key = `${kind}:${init}`;
    const existing = this.constantNames.get(key);
    if (existing !== undefined) return existing;
    const name = this.names.unique(constantName(base));
    this.constantNames.set(key, name);
    this.constants.push(`const ${name} = ${kind === 'call' ? '/* @__PURE__ */ ' : ''}${init};`);
    return name;
  }

  /** The check function of a named schema, emitted on first use. */
  schemaFunction(name: string): string {
    const schema = this.namedSchema(name);
    const names = this.schemaNames.get(name)!;
    if (!this.namedFunctions.has(name)) {
      this.namedFunctions.set(name, undefined); // placeholder: recursive references resolve to its name
      this.functionSchemas.set(names.check, { schema: schema.schema, label: schema.names.pascal });
      this.testNames.set(schema.schema, names.test);
      const body = this.builders.check(schema.schema, this, new Scope(), schema.names.pascal);
      this.namedFunctions.set(name, { name: names.check, comment: `Schema ${commentText(schema.name)}.`, body });
    }
    return names.check;
  }

  /** The predicate name of a named schema (whose function may not exist yet). */
  schemaPredicateName(name: string): string {
    return this.schemaNames.get(name)!.test;
  }

  /** What each check function made here checks (named and shared functions), for its predicate. */
  private readonly functionSchemas = new Map<string, { schema: Schema; label: string }>();
  /** Predicate functions by the schema node they test; names reserved for named schemas. */
  private readonly tests = new Map<Schema, string>();
  private readonly testNames = new Map<Schema, string>();

  /** The predicate of a check function made by this context. */
  predicateOfFunction(fnName: string): string {
    const found = this.functionSchemas.get(fnName);
    if (found === undefined) throw new Error(`no schema recorded for check function ${fnName}`);
    return this.testFunction(found.schema, found.label);
  }

  /**
   * A module-level predicate `(v, strict) => boolean` for `schema`, true
   * exactly when its check records no failure: the same checks, returning
   * `false` at the first failure, with no failure records, paths or
   * messages. Emitted once per schema node, named after its first owner
   * (`matches<label>`).
   */
  testFunction(schema: Schema, label: string): string {
    const existing = this.tests.get(schema);
    if (existing !== undefined) return existing;
    const name = this.testNames.get(schema) ?? this.names.unique(`matches${label}`);
    this.tests.set(schema, name); // placeholder: recursive schemas call the function being built
    const slot = this.declare();
    // While its own predicate is built, a repeated shape is checked inline rather than through its shared function.
    const added = !this.building.has(schema);
    if (added) this.building.add(schema);
    const body = this.builders.test(schema, this, new Scope(), label);
    if (added) this.building.delete(schema);
    this.define(slot, [`const ${name} = (${parameterList(PREDICATE_PARAMS, body)}): boolean => {`, ...print(body, 'return true;', 1), '};'].join('\n'));
    return name;
  }

  /** Named-schema functions sorted by name, then shared shapes in emission order. */
  functions(): CheckFunction[] {
    const named = [...this.namedFunctions.entries()]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([, fn]) => fn!);
    return [...named, ...this.sharedChecks];
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
