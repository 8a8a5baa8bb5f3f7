/**
 * The requests of a run, as fast-check arbitraries per operation:
 * - positive: valid values of every parameter and body (examples first);
 * - negative: a valid request with one constraint broken (a required
 *   parameter left out, a wrong type, a bound or enum missed, an unknown key
 *   where `additionalProperties: false`, malformed JSON in a JSON field);
 * - unauthenticated: a valid request sent without credentials.
 * Whether a request really is valid or invalid is decided by the document's
 * own request decoders (`classify`), so no case rests on a guess.
 */
import fc from 'fast-check';
import type { Operation, Parameter, Schema } from '../model/types.js';
import type { RawRequest, Validators } from './document.js';
import { ValueArbitraries } from './values.js';
import { paramSpec, type OperationSpec, type WireRequest } from './wire.js';

export type CaseKind = 'positive' | 'negative' | 'unauthenticated';

/** What a negative case breaks. */
export interface Broken {
  parameter: Parameter;
  /** `required`, `type`, `minimum`, `maximum`, `minLength`, `maxLength`, `minItems`, `maxItems`, `enum`, `additionalProperties`, `json`. */
  constraint: string;
  description: string;
}

export interface Case {
  kind: CaseKind;
  /** Parameter values by key, as the client runtime takes them. */
  values: Record<string, unknown>;
  broken?: Broken;
  /** The operation table to serialise with, when a case changes how one field travels (raw malformed JSON). */
  spec?: OperationSpec;
}

/** Header parameters OpenAPI says are ignored: the transport sets them. */
const TRANSPORT_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export class CaseArbitraries {
  private readonly values: ValueArbitraries;

  constructor(values: ValueArbitraries) {
    this.values = values;
  }

  /** The parameters a case sets (transport headers aside). */
  parameters(operation: Operation): Parameter[] {
    return operation.parameters.filter((p) => !(p.location === 'header' && TRANSPORT_HEADERS.has(p.name.toLowerCase())) && p.schema.kind !== 'never');
  }

  /** Valid parameter values by key. */
  positive(operation: Operation): fc.Arbitrary<Record<string, unknown>> {
    const parameters = this.parameters(operation);
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const parameter of parameters) {
      const key = parameter.key ?? parameter.name;
      shape[key] = this.parameterValue(parameter);
      if (parameter.required) required.push(key);
    }
    const body = operation.requestBody;
    if (body?.mode === 'whole' && body.contents[0] !== undefined) {
      const key = body.parameterName ?? 'body';
      shape[key] = this.values.of(body.contents[0].schema);
      if (body.required) required.push(key);
    }
    return fc.record(shape, { requiredKeys: required });
  }

  /** The document's request examples of the operation, as parameter values. */
  examples(operation: Operation): Record<string, unknown>[] {
    const files = operation.parameters.filter((parameter) => parameter.encoding === 'file');
    return operation.requestExamples.map((example) => {
      const values = isRecord(example.value) ? { ...example.value } : {};
      // An example can only describe a file's contents in words: those words are sent as the file.
      for (const parameter of files) {
        const key = parameter.key ?? parameter.name;
        const value = values[key];
        if (typeof value === 'string') values[key] = { filename: 'example.txt', contentType: 'text/plain', data: new TextEncoder().encode(value) };
      }
      return values;
    });
  }

  /** One constraint broken, on a valid request. */
  negative(operation: Operation, spec: OperationSpec): fc.Arbitrary<Case> | undefined {
    const breakers = this.parameters(operation).flatMap((parameter) => breakersOf(parameter, this.values.resolve(parameter.schema), spec));
    if (breakers.length === 0) return undefined;
    return fc.tuple(this.positive(operation), fc.constantFrom(...breakers)).map(([values, breaker]) => breaker(values));
  }

  private parameterValue(parameter: Parameter): fc.Arbitrary<unknown> {
    if (parameter.encoding === 'file') {
      const file = fc
        .tuple(fc.stringMatching(/^[a-z]{1,8}\.txt$/), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 64 }))
        .map(([filename, content]) => ({ filename, contentType: 'text/plain', data: new TextEncoder().encode(content) }));
      return this.values.resolve(parameter.schema).kind === 'array' ? fc.array(file, { minLength: 1, maxLength: 2 }) : file;
    }
    const value = this.values.of(parameter.schema);
    // An empty or dot segment is not a path parameter: it changes which path the URL names (RFC 3986 dot segments).
    if (parameter.location === 'path') return value.filter((v) => v !== '' && v !== '.' && v !== '..' && v !== null);
    return value;
  }
}

type Breaker = (values: Record<string, unknown>) => Case;

/** Every way of breaking one constraint of `parameter` that the value alone decides. */
function breakersOf(parameter: Parameter, schema: Schema, spec: OperationSpec): Breaker[] {
  const key = parameter.key ?? parameter.name;
  const name = parameter.name;
  const out: Breaker[] = [];
  const broken = (constraint: string, description: string): Broken => ({ parameter, constraint, description });
  const set =
    (constraint: string, description: string, value: unknown): Breaker =>
    (values) => ({ kind: 'negative', values: { ...values, [key]: value }, broken: broken(constraint, description) });

  if (parameter.required && parameter.location !== 'path') {
    out.push((values) => {
      const rest = { ...values };
      delete rest[key];
      return { kind: 'negative', values: rest, broken: broken('required', `required parameter \`${name}\` left out`) };
    });
  }
  if (parameter.encoding === 'file') return out;
  const json = parameter.encoding === 'json';
  switch (schema.kind) {
    case 'integer':
    case 'number': {
      out.push(set('type', `\`${name}\` is not a number`, 'not-a-number'));
      if (schema.kind === 'integer') out.push(set('type', `\`${name}\` is not an integer`, 1.5));
      if (schema.minimum !== undefined) out.push(set('minimum', `\`${name}\` below its minimum ${schema.minimum}`, schema.minimum - 1));
      if (schema.exclusiveMinimum !== undefined) out.push(set('minimum', `\`${name}\` at its exclusive minimum`, schema.exclusiveMinimum));
      if (schema.maximum !== undefined) out.push(set('maximum', `\`${name}\` above its maximum ${schema.maximum}`, schema.maximum + 1));
      if (schema.exclusiveMaximum !== undefined) out.push(set('maximum', `\`${name}\` at its exclusive maximum`, schema.exclusiveMaximum));
      if (schema.enum !== undefined && schema.enum.length > 0) out.push(set('enum', `\`${name}\` not in its enum`, Math.max(...schema.enum) + 1));
      break;
    }
    case 'boolean':
      out.push(set('type', `\`${name}\` is not a boolean`, 'not-a-boolean'));
      break;
    case 'string': {
      if (json) out.push(set('type', `\`${name}\` is not a string`, 12345));
      if (schema.enum !== undefined && schema.enum.length > 0) out.push(set('enum', `\`${name}\` not in its enum`, 'not-in-the-enum'));
      if (schema.minLength !== undefined && schema.minLength > 0) out.push(set('minLength', `\`${name}\` shorter than ${schema.minLength}`, 'x'.repeat(schema.minLength - 1)));
      if (schema.maxLength !== undefined) out.push(set('maxLength', `\`${name}\` longer than ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1)));
      break;
    }
    case 'array': {
      if (json) out.push(set('type', `\`${name}\` is not a list`, { not: 'a list' }));
      if (schema.minItems !== undefined && schema.minItems > 0) out.push(set('minItems', `\`${name}\` has fewer than ${schema.minItems} items`, []));
      if (schema.maxItems !== undefined) {
        out.push((values) => {
          const current = Array.isArray(values[key]) ? (values[key] as unknown[]) : [];
          const item = current[0] ?? 1;
          return { kind: 'negative', values: { ...values, [key]: Array.from({ length: schema.maxItems! + 1 }, () => item) }, broken: broken('maxItems', `\`${name}\` has more than ${schema.maxItems} items`) };
        });
      }
      break;
    }
    case 'object': {
      if (json) out.push(set('type', `\`${name}\` is not an object`, [1, 2]));
      if (schema.additionalProperties === false) {
        out.push((values) => {
          const current = isRecord(values[key]) ? values[key] : {};
          return { kind: 'negative', values: { ...values, [key]: { ...current, unexpected_field: 1 } }, broken: broken('additionalProperties', `\`${name}\` has a key its schema does not allow`) };
        });
      }
      break;
    }
    default:
      break;
  }
  if (json) {
    // Malformed JSON text: the field travels as plain text for this case.
    const plain: OperationSpec = { ...spec, params: spec.params.map((p) => (p.name === parameter.name && p.in === parameter.location ? { ...paramSpec(parameter, undefined), encoding: 'plain' as const } : p)) };
    out.push((values) => ({ kind: 'negative', values: { ...values, [key]: '{"malformed' }, broken: broken('json', `\`${name}\` is not well-formed JSON`), spec: plain }));
  }
  return out;
}

/**
 * What the document's decoder makes of a request: valid, or the parameter
 * and rule it refuses. The request is read back from its bytes, as a server
 * would read it.
 */
export async function classify(validators: Validators, operation: Operation, request: WireRequest): Promise<{ ok: boolean; parameter?: string }> {
  const decode = validators.decoders[operation.names.camel];
  if (decode === undefined) return { ok: true };
  const raw = await rawRequest(operation, request);
  if (raw === undefined) return { ok: false };
  const decoded = decode(raw);
  return decoded.ok ? { ok: true } : { ok: false, ...(decoded.error !== undefined && { parameter: decoded.error.parameter }) };
}

async function rawRequest(operation: Operation, request: WireRequest): Promise<RawRequest | undefined> {
  const url = new URL(request.url);
  const path = pathParameters(operation, url.pathname);
  if (path === undefined) return undefined;
  const raw: RawRequest = { path, query: fields(url.searchParams), body: {}, headers: {}, cookies: {} };
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'cookie') {
      for (const pair of value.split('; ')) {
        const equals = pair.indexOf('=');
        append(raw.cookies!, decodeURIComponent(pair.slice(0, equals)), decodeURIComponent(pair.slice(equals + 1)));
      }
    } else raw.headers![name.toLowerCase()] = value;
  }
  const contentType = request.headers['Content-Type'];
  if (request.body === undefined || contentType === undefined) return raw;
  const essence = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  const bodyContents = operation.requestBody?.contents ?? [];
  const whole = operation.requestBody?.mode === 'whole';
  if (!whole && essence === 'application/x-www-form-urlencoded') {
    raw.body = fields(new URLSearchParams(new TextDecoder().decode(request.body)));
  } else if (!whole && essence.startsWith('multipart/')) {
    const form = await new Response(request.body, { headers: { 'content-type': contentType } }).formData();
    raw.files = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') append(raw.body, name, value);
      else raw.files.push({ field: name, filename: value.name, contentType: value.type, data: new Uint8Array(await value.arrayBuffer()) });
    }
  } else {
    const declared = bodyContents.find((content) => content.mediaType === essence) ?? bodyContents[0];
    const textBody = new TextDecoder().decode(request.body);
    let value: unknown = request.body;
    if (declared?.kind === 'json') {
      try {
        value = JSON.parse(textBody);
      } catch {
        return undefined;
      }
    } else if (declared?.kind === 'text') value = textBody;
    raw.content = { mediaType: essence, value };
  }
  return raw;
}

/** The path parameters' texts, read back from the path by the operation's template. */
function pathParameters(operation: Operation, pathname: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = (operation.basePath + operation.path)
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (part.startsWith('{') && part.endsWith('}')) {
        names.push(part.slice(1, -1));
        return '([^/]*)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const match = new RegExp(`${pattern}$`).exec(pathname);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
}

function fields(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of params) append(out, name, value);
  return out;
}

function append(out: Record<string, string | string[]>, name: string, value: string): void {
  const current = out[name];
  if (current === undefined) out[name] = value;
  else if (Array.isArray(current)) current.push(value);
  else out[name] = [current, value];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
