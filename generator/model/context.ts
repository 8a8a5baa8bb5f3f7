/** What every model builder needs: the document, `$ref` resolution, and located failures. */
import { formatLocation, SpecError } from '../load/errors.js';
import type { SourceMap } from '../load/source-map.js';
import { isRecord } from '../load/walk.js';
import type { SourceLocation } from './types.js';

export type RawNode = Record<string, unknown>;

export class BuildContext {
  /** Degradations and notes, one line each (`file:line: message`), in the order found. */
  readonly warnings: string[] = [];
  private readonly warned = new Set<string>();
  /** What each `#/...` pointer named: a large document names the same few hundred nodes thousands of times, and the model only reads it. */
  private readonly pointed = new Map<string, unknown>();

  constructor(
    readonly document: RawNode,
    readonly sources: SourceMap,
  ) {}

  /** Records a non-fatal finding about `node` (once per place and message). */
  warn(node: unknown, key: string | undefined, message: string): void {
    const at = this.locate(node, key);
    const line = `${formatLocation(at)}: ${message}`;
    if (this.warned.has(line)) return;
    this.warned.add(line);
    this.warnings.push(line);
  }

  /** Follows internal `$ref`s (the bundler made every ref internal) to the node they name. */
  deref(node: unknown): unknown {
    // Most nodes are no `$ref`: the set of those passed is made only when there is one.
    let seen: Set<unknown> | undefined;
    let current = node;
    while (isRecord(current) && typeof current.$ref === 'string') {
      seen ??= new Set<unknown>();
      if (seen.has(current)) this.fail(node, '$ref', 'circular $ref');
      seen.add(current);
      current = this.pointer(current, current.$ref);
    }
    return current;
  }

  /** The node a `#/...` pointer names. */
  pointer(from: unknown, ref: string): unknown {
    const known = this.pointed.get(ref);
    if (known !== undefined) return known;
    if (!ref.startsWith('#/')) this.fail(from, '$ref', `unsupported $ref \`${ref}\``);
    let node: unknown = this.document;
    const segments = ref.slice(2).split('/');
    for (let index = 0; index < segments.length; index++) {
      const raw = segments[index]!;
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      const through = isRecord(node) && typeof node.$ref === 'string' ? `#/${segments.slice(0, index).join('/')}` : undefined;
      node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[key] : undefined;
      if (node === undefined) {
        // A JSON pointer names a place in the document as written; it does not go on through a `$ref` it meets.
        const hint = through === undefined ? '' : ` (it runs into \`${through}\`, a $ref, which a JSON pointer does not follow)`;
        this.fail(from, '$ref', `cannot resolve $ref \`${ref}\`${hint}`);
      }
    }
    this.pointed.set(ref, node);
    return node;
  }

  locate(node: unknown, key?: string): SourceLocation {
    return this.sources.locate(node, key);
  }

  fail(node: unknown, key: string | undefined, message: string): never {
    const at = this.locate(node, key);
    throw new SpecError(at.file, at.line, message, at.column);
  }

  /** `node[key]` as a record (after `$ref`s), or a located failure saying what was expected. */
  record(node: RawNode, key: string, what: string): RawNode {
    const value = this.deref(node[key]);
    if (!isRecord(value)) this.fail(node, key, `\`${key}\` must be ${what}`);
    return value;
  }

  text(node: RawNode, key: string): string {
    const value = node[key];
    if (value === undefined) return '';
    if (typeof value !== 'string') this.fail(node, key, `\`${key}\` must be text`);
    return value;
  }
}

/** The component name a `#/components/<group>/<Name>` ref points to, if it is one. */
export function componentName(ref: string, group: string): string | undefined {
  const prefix = `#/components/${group}/`;
  if (!ref.startsWith(prefix)) return undefined;
  const rest = ref.slice(prefix.length);
  return rest.includes('/') ? undefined : decodeURIComponent(rest).replace(/~1/g, '/').replace(/~0/g, '~');
}
