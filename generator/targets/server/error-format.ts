/**
 * The document's own error schema, for the framework errors the bindings
 * raise themselves (docs/decisions/0015-framework-errors.md): the named
 * schema more than half of the error responses with a body (4xx, 5xx,
 * `default`) share, with a
 * message-like string field; the status-like and code-like fields it has
 * are filled too, and every other required field gets a plain value.
 */
import type { ApiModel, ObjectSchema, Schema } from '../../model/types.js';
import { sampleValue } from './samples.js';

export interface ErrorFormatModel {
  schemaName: string;
  mediaType: string;
  template: Record<string, unknown>;
  message: string[];
  status?: string[];
  code?: string[];
}

/** Field names, most telling first. */
const MESSAGE_FIELDS = ['message', 'msg', 'detail', 'error_description', 'errorMessage', 'error_message', 'description', 'title', 'error', 'reason'];
const STATUS_FIELDS = ['status', 'statusCode', 'status_code', 'httpStatus', 'http_status', 'code'];
const CODE_FIELDS = ['code', 'error_code', 'errorCode', 'error', 'type', 'reason'];
/** Wrappers one level up: `{ "error": { "message": ... } }`. */
const WRAPPER_FIELDS = ['error', 'errors', 'fault'];

/** Undefined under body-coded errors (the error table is the document's own) or when no error schema fits. */
export function findErrorFormat(model: ApiModel): ErrorFormatModel | undefined {
  if (model.conventions.bodyCodedErrors) return undefined;
  const counts = new Map<string, { count: number; mediaType: string; first: number }>();
  let order = 0;
  let withBody = 0;
  for (const operation of model.operations) {
    for (const error of operation.errors) {
      if (error.status !== 0 && error.status < 400) continue;
      if (error.contents.length > 0) withBody++;
      const content = error.contents.find((candidate) => candidate.kind === 'json');
      const name = content === undefined ? undefined : schemaName(content.schema);
      if (content === undefined || name === undefined) continue;
      const entry = counts.get(name) ?? { count: 0, mediaType: content.mediaType, first: order++ };
      entry.count++;
      counts.set(name, entry);
    }
  }
  // Shared by most: more than half of the error responses that have a body.
  const ranked = [...counts.entries()]
    .filter(([, entry]) => entry.count * 2 > withBody)
    .sort((a, b) => b[1].count - a[1].count || a[1].first - b[1].first);
  for (const [name, { mediaType }] of ranked) {
    const schema = resolve(model, { kind: 'ref', name });
    if (schema?.kind !== 'object') continue;
    const format = fieldsOf(model, schema, []);
    if (format !== undefined) {
      const template = (sampleValue(schema, model) ?? {}) as Record<string, unknown>;
      return { schemaName: name, mediaType: mediaType.includes('*') ? 'application/json' : mediaType, template, ...format };
    }
  }
  return undefined;
}

function fieldsOf(model: ApiModel, schema: ObjectSchema, at: string[]): Omit<ErrorFormatModel, 'schemaName' | 'mediaType' | 'template'> | undefined {
  const property = (names: string[], kinds: Schema['kind'][], exclude?: string) => {
    for (const wanted of names) {
      const found = schema.properties.find((candidate) => candidate.name === wanted && candidate.name !== exclude);
      const resolved = found === undefined ? undefined : resolve(model, found.schema);
      if (found !== undefined && resolved !== undefined && kinds.includes(resolved.kind) && !hasFixedValue(resolved)) return found.name;
    }
    return undefined;
  };
  const message = property(MESSAGE_FIELDS, ['string', 'any']);
  if (message === undefined) {
    if (at.length > 0) return undefined;
    for (const wrapper of WRAPPER_FIELDS) {
      const found = schema.properties.find((candidate) => candidate.name === wrapper);
      const resolved = found === undefined ? undefined : resolve(model, found.schema);
      if (resolved?.kind === 'object') {
        const inner = fieldsOf(model, resolved, [wrapper]);
        if (inner !== undefined) return inner;
      }
    }
    return undefined;
  }
  const result: Omit<ErrorFormatModel, 'schemaName' | 'mediaType' | 'template'> = { message: [...at, message] };
  const status = property(STATUS_FIELDS, ['integer', 'number']);
  if (status !== undefined) result.status = [...at, status];
  const code = property(CODE_FIELDS, ['string'], message);
  if (code !== undefined) result.code = [...at, code];
  return result;
}

/** A field pinned to one value (`const`, an `enum`) is left to the template. */
function hasFixedValue(schema: Schema): boolean {
  return ('const' in schema && schema.const !== undefined) || ('enum' in schema && schema.enum !== undefined) || (schema.kind === 'string' && schema.format !== undefined && schema.format !== 'text');
}

function schemaName(schema: Schema): string | undefined {
  return schema.kind === 'ref' ? schema.name : schema.refName;
}

function resolve(model: ApiModel, schema: Schema, depth = 0): Schema | undefined {
  if (schema.kind !== 'ref') return schema;
  if (depth > 8) return undefined;
  const named = model.schemas.find((candidate) => candidate.name === schema.name);
  return named === undefined ? undefined : resolve(model, named.schema, depth + 1);
}

/** The `defineErrorFormat(...)` argument. */
export function errorFormatLiteral(format: ErrorFormatModel | undefined): string {
  if (format === undefined) return 'undefined';
  const fields = [`mediaType: ${JSON.stringify(format.mediaType)}`, `template: ${JSON.stringify(format.template)}`, `message: ${JSON.stringify(format.message)}`];
  if (format.status !== undefined) fields.push(`status: ${JSON.stringify(format.status)}`);
  if (format.code !== undefined) fields.push(`code: ${JSON.stringify(format.code)}`);
  return `{ ${fields.join(', ')} }`;
}
