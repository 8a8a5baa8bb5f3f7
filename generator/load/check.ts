/**
 * Checks over the whole bundled document that do not belong to any one
 * model construct: unique operationIds and the shapes of our extensions,
 * wherever they appear.
 */
import { formatLocation, SpecError } from './errors.js';
import type { SourceMap } from './source-map.js';
import { isRecord, walkDocument } from './walk.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace'];

type Check = (value: unknown) => string | undefined;

const isLevel = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;

/** Our extensions and what their values must look like. */
const EXTENSIONS: Record<string, Check> = {
  'x-feature-level': (v) => (isLevel(v) ? undefined : 'must be a non-negative integer'),
  'x-changes': (v) => {
    if (!Array.isArray(v)) return 'must be a list of {level, change}';
    for (const [i, item] of v.entries()) {
      if (!isRecord(item) || !isLevel(item.level) || typeof item.change !== 'string') {
        return `item ${i} must be {level: <non-negative integer>, change: <text>}`;
      }
      const extra = Object.keys(item).filter((k) => k !== 'level' && k !== 'change');
      if (extra.length > 0) return `item ${i} has unknown key \`${extra[0]}\``;
    }
    return undefined;
  },
  'x-unspecified': (v) => (typeof v === 'string' && v.trim() !== '' ? undefined : 'must be non-empty text'),
  'x-error-code': (v) => (typeof v === 'string' && /^[A-Z][A-Z0-9_]*$/.test(v) ? undefined : 'must be an UPPER_SNAKE_CASE code'),
  'x-http-status': (v) => (Number.isInteger(v) && (v as number) >= 400 && (v as number) <= 599 ? undefined : 'must be an HTTP error status (400-599)'),
};

const EXTENSION_KEYS = Object.keys(EXTENSIONS);

function hasExtension(node: Record<string, unknown>): boolean {
  // Run for every node: an indexed loop makes no iterator.
  for (let i = 0; i < EXTENSION_KEYS.length; i++) if (EXTENSION_KEYS[i]! in node) return true;
  return false;
}

export interface Checked {
  /** Notes, one line each (`file:line: ...`). */
  warnings: string[];
  /** Every node holding one of our extensions (`x-feature-level`, `x-changes`, ...), in walk order, all checked. */
  extended: Record<string, unknown>[];
}

/**
 * Checks the document; returns notes and the nodes with our extensions. `x-changes` is also
 * a name other APIs use, as text (`x-changes: "3.8.1-3.8.2: ..."`): it is
 * ours, and checked, when the document names feature levels (any
 * `x-feature-level`) or writes some `x-changes` as a list; otherwise each
 * `x-changes` that is not a list is left out, with one note.
 */
export function checkDocument(document: Record<string, unknown>, sources: SourceMap): Checked {
  const changes: Record<string, unknown>[] = [];
  // Nodes holding any of our extensions, in walk order: checked below, once the foreign `x-changes` are gone.
  const extended: Record<string, unknown>[] = [];
  let levels = false;
  walkDocument(document, {
    keywords(node) {
      if ('x-changes' in node) changes.push(node);
      if ('x-feature-level' in node) levels = true;
      if (hasExtension(node)) extended.push(node);
    },
  });
  const warnings: string[] = [];
  const ours = levels || changes.some((node) => Array.isArray(node['x-changes']));
  const foreign = ours ? [] : changes.filter((node) => !Array.isArray(node['x-changes']));
  if (foreign.length > 0) {
    const at = sources.locate(foreign[0], 'x-changes');
    const others = foreign.length === 1 ? '' : ` (and ${foreign.length - 1} more)`;
    warnings.push(`${formatLocation(at)}: \`x-changes\` is not a list of {level, change} and the document names no feature levels: ignored${others}`);
    for (const node of foreign) delete node['x-changes'];
  }
  for (const node of extended) {
    for (const [key, check] of Object.entries(EXTENSIONS)) {
      if (!(key in node)) continue;
      const problem = check(node[key]);
      if (problem) fail(sources, node, key, `\`${key}\` ${problem}`);
    }
  }
  checkOperationIds(document, sources, warnings);
  return { warnings, extended };
}

function checkOperationIds(document: Record<string, unknown>, sources: SourceMap, warnings: string[]): void {
  const first = new Map<string, object>();
  const paths = isRecord(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isRecord(operation)) continue;
      const id = operation.operationId;
      // An operation without an operationId gets a name derived from its method and path (model/build.ts).
      if (id === undefined) continue;
      if (id === '') {
        // A string, so valid; it names nothing, and the operation is named as one without.
        const at = sources.locate(operation, 'operationId');
        warnings.push(`${formatLocation(at)}: ${method.toUpperCase()} ${path}: the operationId is empty: the operation is named from its method and path`);
        delete operation.operationId;
        continue;
      }
      if (typeof id !== 'string') {
        fail(sources, operation, 'operationId', `${method.toUpperCase()} ${path}: operationId must be a non-empty string`);
      }
      const earlier = first.get(id);
      if (earlier) {
        const at = sources.locate(earlier, 'operationId');
        fail(sources, operation, 'operationId', `duplicate operationId \`${id}\` (first used at ${at.file}${at.line ? `:${at.line}` : ''})`);
      }
      first.set(id, operation);
    }
  }
}

function fail(sources: SourceMap, node: object, key: string | undefined, message: string): never {
  const at = sources.locate(node, key);
  throw new SpecError(at.file, at.line, message, at.column);
}
