/**
 * The diff engine: compares two API models (base = what existing clients
 * were built from, head = what the server will speak) and lists every
 * difference a client can observe, classified as breaking or compatible.
 * See docs/diff.md for the classification rules and the JSON schema.
 */
import { versionNotes } from '../model/notes.js';
import type { ApiModel, ErrorCode, ObjectSchema, Operation, Parameter, Schema } from '../model/types.js';
import { highestLevel, type Notes } from './notes.js';
import { label, SchemaDiff, type Emit, type Place } from './schema.js';
import type { DiffChange } from './types.js';

export type { DiffChange, ChangeKind } from './types.js';

export function diffModels(base: ApiModel, head: ApiModel): DiffChange[] {
  const changes: DiffChange[] = [];
  const seen = new Set<string>();
  const emit: Emit = (place, name, kind, breaking, message) => {
    const change: DiffChange = { operationId: place.operationId, location: place.location, name, kind, breaking, level: highestLevel(place.chain), message };
    const key = JSON.stringify(change);
    if (seen.has(key)) return;
    seen.add(key);
    changes.push(change);
  };
  const baseSchemas = new Map(base.schemas.map((s) => [s.name, s.schema]));
  const headSchemas = new Map(head.schemas.map((s) => [s.name, s.schema]));
  const doc = documentNotes(head);
  // Each error code's schema in the head, whose notes enclose the code.
  const errorSchemas = new Map(head.errors.flatMap((e) => (headSchemas.has(e.schemaName) ? [[e.code, headSchemas.get(e.schemaName)!] as const] : [])));
  const schemaDiff = (): SchemaDiff => new SchemaDiff(baseSchemas, headSchemas, emit);

  const headOps = new Map(head.operations.map((op) => [op.id, op]));
  const baseOps = new Map(base.operations.map((op) => [op.id, op]));
  for (const a of base.operations) {
    const b = headOps.get(a.id);
    const place: Place = { operationId: a.id, location: 'operation', direction: 'request', chain: [doc] };
    if (!b) emit(place, '', 'operation-removed', true, `${endpoint(a)} was removed`);
    else compareOperation(a, b, doc, errorSchemas, schemaDiff(), emit);
  }
  for (const b of head.operations) {
    if (baseOps.has(b.id)) continue;
    emit({ operationId: b.id, location: 'operation', direction: 'request', chain: [doc, b] }, '', 'operation-added', false, `${endpoint(b)} was added`);
  }

  const headErrors = new Map(head.errors.map((e) => [e.code, e]));
  for (const a of base.errors) {
    const b = headErrors.get(a.code);
    if (b) compareErrorCode(a, b, doc, headSchemas, schemaDiff(), emit);
  }

  return order(changes);
}

function compareOperation(a: Operation, b: Operation, doc: Notes, errorSchemas: Map<string, Schema>, schemas: SchemaDiff, emit: Emit): void {
  const op: Place = { operationId: b.id, location: 'operation', direction: 'request', chain: [doc, b] };
  if (a.method !== b.method || a.path !== b.path) emit(op, '', 'operation-moved', true, `moved from ${endpoint(a)} to ${endpoint(b)}`);
  if (!a.auth && b.auth) emit(op, '', 'security-added', true, 'now requires authentication');
  if (a.auth && !b.auth) emit(op, '', 'security-removed', false, 'no longer requires authentication');
  if (a.body !== b.body) emit(op, '', 'request-body-changed', true, `request body changed from ${a.body} to ${b.body}`);
  schemas.notes(op, '', a, b);

  for (const pa of a.parameters) {
    const pb = b.parameters.find((p) => p.name === pa.name);
    if (!pb) {
      emit({ ...op, location: pa.location }, pa.name, 'parameter-removed', true, `parameter \`${pa.name}\` was removed`);
      continue;
    }
    compareParameter(pa, pb, { ...op, location: pb.location, chain: [...op.chain, pb] }, schemas, emit);
  }
  for (const pb of b.parameters) {
    if (a.parameters.some((p) => p.name === pb.name)) continue;
    const place: Place = { ...op, location: pb.location, chain: [...op.chain, pb] };
    emit(place, pb.name, 'parameter-added', pb.required, `parameter \`${pb.name}\` (${pb.location}) was added${pb.required ? ' (required)' : ''}`);
  }

  schemas.compare({ ...op, location: 'response', direction: 'response' }, '', a.success.schema, b.success.schema);

  const codesA = errorStatuses(a);
  const codesB = errorStatuses(b);
  for (const [code, status] of codesB) {
    const place: Place = { ...op, location: 'error', direction: 'response', chain: [...op.chain, errorSchemas.get(code)] };
    const before = codesA.get(code);
    if (before === undefined) emit(place, code, 'error-code-added', false, `may now fail with \`${code}\` (${status})`);
    else if (before !== status) emit(place, code, 'error-status-changed', true, `\`${code}\` now answers with status ${status} instead of ${before}`);
  }
  for (const [code, status] of codesA) {
    if (!codesB.has(code)) emit({ ...op, location: 'error', direction: 'response' }, code, 'error-code-removed', false, `no longer fails with \`${code}\` (${status})`);
  }
}

function compareParameter(a: Parameter, b: Parameter, place: Place, schemas: SchemaDiff, emit: Emit): void {
  const what = label(place, b.name);
  if (a.location !== b.location) emit(place, b.name, 'parameter-moved', true, `${what} moved from ${a.location} to ${b.location}`);
  if (a.encoding !== b.encoding) emit(place, b.name, 'parameter-encoding-changed', true, `${what} is now sent as ${b.encoding} instead of ${a.encoding}`);
  if (!a.required && b.required) emit(place, b.name, 'parameter-required', true, `${what} is now required`);
  if (a.required && !b.required) emit(place, b.name, 'parameter-optional', false, `${what} is no longer required`);
  if (JSON.stringify(a.default) !== JSON.stringify(b.default)) {
    // Clients that leave the parameter out get another behaviour.
    emit(place, b.name, 'default-changed', true, `${what}: default ${show(a.default)} -> ${show(b.default)}`);
  }
  schemas.notes(place, b.name, a, b);
  schemas.compare(place, b.name, a.schema, b.schema);
}

function compareErrorCode(a: ErrorCode, b: ErrorCode, doc: Notes, headSchemas: Map<string, Schema>, schemas: SchemaDiff, emit: Emit): void {
  const place: Place = { operationId: null, location: 'error', direction: 'response', chain: [doc, headSchemas.get(b.schemaName)] };
  if (a.status !== b.status) emit(place, a.code, 'error-status-changed', true, `\`${a.code}\` now answers with status ${b.status} instead of ${a.status}`);
  const body = (e: ErrorCode): ObjectSchema => ({ kind: 'object', properties: e.extraFields, additionalProperties: true });
  schemas.compare(place, a.code, body(a), body(b));
}

/** Each error code of an operation with its status. */
function errorStatuses(op: Operation): Map<string, number> {
  const codes = new Map<string, number>();
  for (const error of op.errors) for (const code of error.codes) codes.set(code, error.status);
  return codes;
}


/** Notes on the document root and `info`, which enclose every place. */
function documentNotes(model: ApiModel): Notes {
  const root = model.openapi;
  if (!root) return undefined;
  const info = typeof root.info === 'object' && root.info !== null ? (root.info as Record<string, unknown>) : {};
  const a = versionNotes(root);
  const b = versionNotes(info);
  const notes: Notes = { changes: [...a.changes, ...b.changes] };
  const level = a.featureLevel ?? b.featureLevel;
  if (level !== undefined) notes.featureLevel = level;
  return notes;
}

function endpoint(op: Operation): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

function show(value: unknown): string {
  return value === undefined ? 'none' : JSON.stringify(value);
}

/** Operations by id (document-wide changes last); within one, the order the comparison found them. */
function order(changes: DiffChange[]): DiffChange[] {
  return changes
    .map((change, index) => ({ change, index }))
    .sort((x, y) => {
      const a = x.change.operationId;
      const b = y.change.operationId;
      if (a !== b) return a === null ? 1 : b === null ? -1 : a < b ? -1 : 1;
      return x.index - y.index;
    })
    .map(({ change }) => change);
}
