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
  readonly variantFunctions: CheckFunction[] = [];
  private variantCount = 0;

  constructor(
    readonly model: ApiModel,
    private readonly buildBody: FunctionBuilder,
  ) {
    this.named = new Map(model.schemas.map((s) => [s.name, s]));
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
    fn.body = this.buildBody(schema, this, new Scope());
    return fnName;
  }

  /** Named-schema functions sorted by name, then union variants in emission order. */
  functions(): CheckFunction[] {
    const named = [...this.namedFunctions.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, fn]) => fn!);
    return [...named, ...this.variantFunctions];
  }
}
