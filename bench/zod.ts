/**
 * Our generated request decoders and response validators against the zod
 * schemas the peers generated for the same spec (zod 4), on the payloads
 * bench/validators.ts uses against ajv: the largest request and success
 * examples of the spec.
 *
 * Decoding: hey-api's `z<Op>Path/Query/Body` schemas (orval's zod output has
 * no form-body schemas). zod gets the raw request after the same preparation
 * ajv gets (fields split by location, JSON-encoded fields parsed, unsupported
 * names listed) plus the text-to-number/boolean coercion ajv does itself;
 * `safeParse` then validates and fills defaults.
 * Responses: `safeParse` of hey-api's `z<Op>Response` and orval's `<op>Response`.
 */
import type { ApiModel, Operation, ParameterLocation, Schema } from '../generator/model/types.js';
import type { Outputs } from './outputs.js';
import { compareRounds } from './stats.js';
import { toWire } from '../test/fixtures/validators/wire.js';
import type { RawRequestLike } from '../test/fixtures/validators/load.js';

// The same operations as bench/validators.ts, so the three columns share payloads.
const DECODED = ['sendInvites', 'updateStream', 'updateMessageFlagsForNarrow', 'updatePresence', 'updateUser', 'getMessage'];
const VALIDATED = ['getMessage', 'getOwnUser', 'getMessageHistory', 'getLinkifiers', 'updatePresence', 'updateMessageFlagsForNarrow'];

interface ZodLike {
  safeParse(value: unknown): { success: boolean };
}

export interface ZodRow {
  name: string;
  /** Median ops/s per contender: ours, zod (hey-api), zod (orval). */
  opsPerSec: Record<string, number>;
  /** Median of ours/theirs within a round, per other contender. */
  ratioVsOurs: Record<string, number>;
}

function largestExample<T extends { value: unknown }>(examples: T[]): T | undefined {
  return [...examples].sort((a, b) => JSON.stringify(b.value).length - JSON.stringify(a.value).length)[0];
}

function resolved(model: ApiModel, schema: Schema): Schema {
  let current = schema;
  while (current.kind === 'ref') {
    const name = current.name;
    const named = model.schemas.find((s) => s.name === name);
    if (named === undefined) break;
    current = named.schema;
  }
  return current;
}

/** What ajv's `coerceTypes` does for a plain-text field. */
function coerce(kind: Schema['kind'], text: string): unknown {
  if (kind === 'integer' || kind === 'number') return text.trim() === '' ? text : Number(text);
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** Decoded values by location (the bench's wire requests, like `toWire`, carry header and cookie parameters, which our document has none of, as fields). */
type Split = { [L in ParameterLocation]?: Record<string, unknown> } & { unsupported: string[] };

function preparer(model: ApiModel, operation: Operation): (raw: RawRequestLike) => Split | undefined {
  const fields = operation.parameters.map((p) => ({
    name: p.name,
    location: p.location,
    json: p.encoding === 'json',
    kind: resolved(model, p.schema).kind,
  }));
  const known = new Set(fields.map((f) => f.name));
  return (raw) => {
    const unsupported: string[] = [];
    for (const name in raw.body) if (!known.has(name)) unsupported.push(name);
    for (const name in raw.query) if (!known.has(name)) unsupported.push(name);
    const split: Split = { unsupported };
    for (const field of fields) {
      const source = field.location === 'path' ? raw.path : { ...raw.query, ...raw.body };
      const text = source[field.name];
      if (typeof text !== 'string') continue;
      let value: unknown;
      if (field.json) {
        try {
          value = JSON.parse(text);
        } catch {
          return undefined;
        }
      } else value = coerce(field.kind, text);
      (split[field.location] ??= {})[field.name] = value;
    }
    return split;
  };
}

function find(model: ApiModel, camel: string): Operation {
  const operation = model.operations.find((o) => o.names.camel === camel);
  if (operation === undefined) throw new Error(`no operation ${camel} in the spec`);
  return operation;
}

export async function benchZod(model: ApiModel, outputs: Outputs, options: { rounds: number; msPerRound: number }): Promise<ZodRow[]> {
  const ours = await outputs.import<Record<string, (...args: unknown[]) => unknown>>('generated/validators.ts');
  const hey = await outputs.import<Record<string, ZodLike | undefined>>('peers/hey-api/zod.gen.ts');
  const orval = await outputs.import<Record<string, ZodLike | undefined>>('peers/orval/zod.ts');
  const rows: ZodRow[] = [];

  for (const camel of DECODED) {
    const operation = find(model, camel);
    const example = largestExample(operation.requestExamples);
    if (example === undefined) throw new Error(`${operation.id} has no request example`);
    const raw = toWire(operation, example.value as Record<string, unknown>);
    const decode = ours[`decode${operation.names.pascal}`] as (raw: RawRequestLike) => { ok: boolean };
    const prepare = preparer(model, operation);
    const parts = (['path', 'query', 'body'] as const).map((location) => {
      const schema = hey[`z${operation.names.pascal}${location[0]!.toUpperCase()}${location.slice(1)}`];
      return { location, schema };
    });
    const zodDecode = () => {
      const split = prepare(raw);
      if (split === undefined) return 0;
      for (const { location, schema } of parts) {
        const value = split[location];
        if (value === undefined) continue;
        if (schema === undefined || !schema.safeParse(value).success) return 0;
      }
      return 1;
    };
    if (!decode(raw).ok) throw new Error(`${operation.id}: our decoder rejects the example`);
    if (zodDecode() !== 1) throw new Error(`${operation.id}: hey-api's zod schemas reject the prepared example`);
    const compared = await compareRounds({ ours: () => (decode(raw).ok ? 1 : 0), 'zod (hey-api)': zodDecode }, { ...options, ours: 'ours' });
    rows.push({ name: `decode ${operation.id}`, ...compared });
  }

  for (const camel of VALIDATED) {
    const operation = find(model, camel);
    const example = largestExample(operation.success.examples);
    if (example === undefined) throw new Error(`${operation.id} has no success example`);
    // As in bench/validators.ts: the body as a client has it from JSON.parse, for every contender.
    const body: unknown = JSON.parse(JSON.stringify(example.value));
    const validate = ours[`validate${operation.names.pascal}Response`] as (body: unknown) => unknown[];
    if (validate(body).length !== 0) throw new Error(`${operation.id}: our validator rejects the example`);
    const contenders: Record<string, () => number> = { ours: () => validate(body).length };
    for (const [name, schema] of [
      ['zod (hey-api)', hey[`z${operation.names.pascal}Response`]],
      ['zod (orval)', orval[`${operation.names.camel}Response`]],
    ] as const) {
      // A peer schema that rejects a valid example is a finding, not a contender.
      if (schema !== undefined && schema.safeParse(body).success) contenders[name] = () => (schema.safeParse(body).success ? 0 : 1);
    }
    const compared = await compareRounds(contenders, { ...options, ours: 'ours' });
    rows.push({ name: `validate ${operation.id} response`, ...compared });
  }
  return rows;
}
