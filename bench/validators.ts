/**
 * Throughput of the generated request decoders and response validators,
 * against ajv 8 compiled from the equivalent JSON Schema, on the spec's own
 * examples. For decoding, ajv gets the same raw request after the obvious
 * preparation (fields merged, JSON-encoded fields parsed with JSON.parse,
 * unsupported names listed as ours do) and coerces and defaults the rest
 * itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { loadSpec } from '../generator/load/index.js';
import { buildModel } from '../generator/model/build.js';
import type { ApiModel, Operation } from '../generator/model/types.js';
import { definitions, toJsonSchema } from '../test/fixtures/validators/json-schema.js';
import { loadGenerated, removeWritten, type GeneratedValidators, type RawRequestLike } from '../test/fixtures/validators/load.js';
import { toWire } from '../test/fixtures/validators/wire.js';
import { LARGE, syntheticSpec } from '../test/support/synthetic-spec.js';

export interface BenchRow {
  name: string;
  opsPerSec: number;
  /** Our throughput over ajv's on the same work (1 for the ajv rows themselves). */
  ratioVsAjv: number;
}

const DECODED = ['sendInvites', 'updateStream', 'updateMessageFlagsForNarrow', 'updatePresence', 'updateUser', 'getMessage'];
const VALIDATED = ['getMessage', 'getOwnUser', 'getMessageHistory', 'getLinkifiers', 'updatePresence', 'updateMessageFlagsForNarrow'];

let sink = 0;

/** What is timed: `fn(arg)`, its result turned into a number by `score`, an expression over `r`. */
interface Contender {
  fn: (arg: never) => unknown;
  arg: unknown;
  score: string;
}

type Rate = (fn: Contender['fn'], arg: unknown, ms: number) => number;

/**
 * A loop that counts calls per second of one contender over at least `ms`,
 * compiled for that contender alone (as benchmark.js compiles each test):
 * one loop or one wrapper closure shared by every case sees dozens of
 * functions at its call site, stops inlining, and adds the same few
 * nanoseconds of dispatch to both sides, which for the cheapest validators
 * (a few ns a call) was most of what was measured. Here each side is called
 * as a caller calling it alone would call it. (ajv's decoders are one
 * closure per operation around ajv's function; their call into ajv is shared
 * by the operations, a few ns of their 300-1,000.)
 *
 * Each loop's text is unique (a numbered comment, as benchmark.js puts a
 * uid in each compiled test): V8 caches `new Function` by its text and call
 * site, and once that cache's function has feedback, every loop made from
 * the same text shares one feedback vector. Loops with the same `score`
 * then shared their call site's feedback across cases, and the later cases
 * were timed through a megamorphic call (an empty function measured 7.6 ns
 * a call in the narrow case's place, the narrow's own figure).
 */
let loopCount = 0;

function timingLoop(score: string): Rate {
  const source = `// timing loop ${++loopCount}
  return function rate(fn, arg, ms) {
    let calls = 0;
    let sum = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      for (let i = 0; i < 1000; i++) {
        const r = fn(arg);
        sum += ${score};
      }
      calls += 1000;
      elapsed = performance.now() - start;
    } while (elapsed < ms);
    sink(sum);
    return calls / (elapsed / 1000);
  };`;
  const make = new Function('performance', 'sink', source) as (clock: typeof performance, sink: (n: number) => void) => Rate;
  return make(performance, (n) => void (sink += n));
}

const ROUNDS = 7;

/**
 * Best rate of each side over alternating rounds after a warm-up: the
 * machine is shared, and the best round is the one least disturbed.
 */
function compare(ours: Contender, theirs: Contender, minMs: number): { ours: number; theirs: number } {
  const oursLoop = timingLoop(ours.score);
  const theirsLoop = timingLoop(theirs.score);
  oursLoop(ours.fn, ours.arg, 30);
  theirsLoop(theirs.fn, theirs.arg, 30);
  let best = { ours: 0, theirs: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    best = {
      ours: Math.max(best.ours, oursLoop(ours.fn, ours.arg, minMs / ROUNDS)),
      theirs: Math.max(best.theirs, theirsLoop(theirs.fn, theirs.arg, minMs / ROUNDS)),
    };
  }
  return best;
}

function largestExample<T extends { value: unknown }>(examples: T[]): T | undefined {
  return [...examples].sort((a, b) => JSON.stringify(b.value).length - JSON.stringify(a.value).length)[0];
}

/** ajv's version of a decoder: merge the fields, parse the JSON ones, then coerce, default and validate. */
function ajvDecoder(ajv: Ajv2020, operation: Operation): (raw: RawRequestLike) => string[] | undefined {
  const schema = {
    type: 'object',
    properties: Object.fromEntries(
      operation.parameters.map((p) => {
        const converted = toJsonSchema(p.schema);
        const withDefault = p.default === undefined || typeof converted === 'boolean' ? converted : { ...converted, default: p.default };
        return [p.name, withDefault];
      }),
    ),
    required: operation.parameters.filter((p) => p.required).map((p) => p.name),
  };
  const validate: ValidateFunction = ajv.compile(schema);
  const jsonNames = operation.parameters.filter((p) => p.encoding === 'json').map((p) => p.name);
  const known = new Set(operation.parameters.map((p) => p.name));
  return (raw) => {
    // The same output as a generated decoder: the names the operation does not take.
    const unsupported: string[] = [];
    for (const name in raw.body) if (!known.has(name)) unsupported.push(name);
    for (const name in raw.query) if (!known.has(name)) unsupported.push(name);
    const params: Record<string, unknown> = { ...raw.query, ...raw.body, ...raw.path };
    for (const name of jsonNames) {
      const text = params[name];
      if (typeof text !== 'string') continue;
      try {
        params[name] = JSON.parse(text);
      } catch {
        return undefined;
      }
    }
    return validate(params) ? unsupported : undefined;
  };
}

function find(model: ApiModel, camel: string): Operation {
  const operation = model.operations.find((o) => o.names.camel === camel);
  if (operation === undefined) throw new Error(`no operation ${camel} in the spec`);
  return operation;
}

export async function benchValidators(options: { minMs?: number; root?: string } = {}): Promise<BenchRow[]> {
  const minMs = options.minMs ?? 700;
  const root = options.root ?? join(import.meta.dirname, '..');
  const model = buildModel(await loadSpec('spec/openapi.yaml', root));
  const generated: GeneratedValidators = await loadGenerated(model);
  removeWritten();
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  ajv.addSchema(definitions(model));
  const coercing = new Ajv2020({ strict: false, allErrors: false, coerceTypes: true, useDefaults: true });
  coercing.addSchema(definitions(model));

  const rows: BenchRow[] = [];
  const pair = (name: string, ours: Contender, theirs: Contender) => {
    const { ours: oursOps, theirs: ajvOps } = compare(ours, theirs, minMs);
    rows.push({ name, opsPerSec: Math.round(oursOps), ratioVsAjv: Number((oursOps / ajvOps).toFixed(2)) });
    rows.push({ name: `${name} (ajv)`, opsPerSec: Math.round(ajvOps), ratioVsAjv: 1 });
  };

  for (const camel of DECODED) {
    const operation = find(model, camel);
    const example = largestExample(operation.requestExamples);
    if (example === undefined) throw new Error(`${operation.id} has no request example`);
    const raw = toWire(operation, example.value as Record<string, unknown>);
    const decode = generated.decoders[camel]!;
    const theirs = ajvDecoder(coercing, operation);
    if (!decode(raw).ok || theirs(raw) === undefined) throw new Error(`${operation.id}: example does not decode`);
    pair(`decode ${operation.id}`, { fn: decode, arg: raw, score: 'r.ok ? 1 : 0' }, { fn: theirs, arg: raw, score: 'r === undefined ? 0 : 1' });
  }

  for (const camel of VALIDATED) {
    const operation = find(model, camel);
    const example = largestExample(operation.success.examples);
    if (example === undefined) throw new Error(`${operation.id} has no success example`);
    // A copy as a client has it from JSON.parse (both sides): the model's example objects can be in V8's slow dictionary mode.
    const body: unknown = JSON.parse(JSON.stringify(example.value));
    const validate = generated.responseValidators[camel]!;
    const theirs = ajv.compile(toJsonSchema(operation.success.schema));
    if (validate(body).length !== 0 || !theirs(body)) throw new Error(`${operation.id}: example does not validate`);
    pair(`validate ${operation.id} response`, { fn: validate, arg: body, score: 'r.length' }, { fn: theirs, arg: body, score: 'r ? 0 : 1' });
  }
  rows.push(...(await composedCases(pair)));
  if (sink < 0) throw new Error('unreachable: keeps the measured calls observable');
  return rows;
}

/**
 * Composed and union schemas, from the large synthetic document (few
 * resources, the full event union and registration response): a response
 * made of a 6-level allOf chain, an array of 60 events of a 120-kind
 * discriminated union (ajv with its `discriminator` option, so both sides
 * dispatch), and a 400-field object composed with the envelope. ajv compiles
 * the normalised document itself.
 */
async function composedCases(pair: (name: string, ours: Contender, theirs: Contender) => void): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-bench-composed-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(syntheticSpec({ ...LARGE, resources: 4 })));
    const loaded = await loadSpec('openapi.json', dir);
    const model = buildModel(loaded);
    const generated = await loadGenerated(model);
    removeWritten();
    const ajv = new Ajv2020({ strict: false, allErrors: false, discriminator: true });
    ajv.addSchema({ ...structuredClone(loaded.document), $id: 'https://bench.test/large.json' });
    const responseSchema = (camel: string) => {
      const operation = model.operations.find((o) => o.names.camel === camel)!;
      const raw = (loaded.document.paths as Record<string, Record<string, any>>)[operation.path]![operation.method].responses['200'].content['application/json'].schema;
      return ajv.compile(JSON.parse(JSON.stringify(raw).replace(/"#\/components/g, '"https://bench.test/large.json#/components')));
    };
    const item = { id: 3, name: 'item', level1: 'one', level2: true, level3: 2.5, level4: 'high', level5: [1, 2, 3], r2_a: true, r2_b: 2.5, r2_c: null };
    const events = Array.from({ length: 60 }, (_, i) => {
      const kind = (i * 7) % LARGE.eventKinds;
      const event: Record<string, unknown> = { type: `event_${kind}`, id: i };
      for (let f = 0; f < 4; f++) event[`e${kind}_f${f}`] = sampleField(kind + f);
      return event;
    });
    const registration: Record<string, unknown> = { result: 'success', msg: '' };
    for (let f = 0; f < LARGE.wideFields; f++) registration[`field_${f}`] = sampleField(f);
    const cases: [string, string, unknown][] = [
      ['validate get-r2 response (6-level allOf chain)', 'getR2', { result: 'success', msg: '', item }],
      ['validate get-events response (60 events, 120-kind union)', 'getEvents', { result: 'success', msg: '', events }],
      ['validate register response (400 fields, allOf envelope)', 'register', registration],
    ];
    for (const [name, camel, body] of cases) {
      const validate = generated.responseValidators[camel]!;
      const theirs = responseSchema(camel);
      if (validate(body).length !== 0 || !theirs(body)) throw new Error(`${name}: sample does not validate: ${JSON.stringify(validate(body))}`);
      pair(name, { fn: validate, arg: body, score: 'r.length' }, { fn: theirs, arg: body, score: 'r ? 0 : 1' });
    }
    return [];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A valid value for field `i` of the synthetic document (see `field` in test/support/synthetic-spec.ts). */
function sampleField(i: number): unknown {
  return [7, 'text', true, 1.5, 'medium', [1, 2, 3], '2024-05-01T10:00:00Z', { a: 'b' }][i % 8];
}

/** `tsx bench/validators.ts` prints the table on its own. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchValidators();
  console.log('| case | ops/s | vs ajv |\n|---|---:|---:|');
  for (const row of rows) console.log(`| ${row.name} | ${row.opsPerSec.toLocaleString('en-US')} | ${row.ratioVsAjv}x |`);
}
