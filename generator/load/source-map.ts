/**
 * Maps nodes of the bundled document back to the file and line they came
 * from. The bundler keeps the identity of the objects it parsed from each
 * file, so a walk over every parsed file gives object -> (file, pointer); the
 * line then comes from the file's YAML syntax tree.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import type { LineCounter, Node as YamlNode, parseDocument } from 'yaml';
import type { SourceLocation } from '../model/types.js';

/** `yaml`, loaded when a line is first asked for (most runs never do). */
const yaml = (): typeof import('yaml') => createRequire(import.meta.url)('yaml') as typeof import('yaml');

export interface NodeOrigin {
  /** Absolute path of the file. */
  absolute: string;
  /** Keys from the file's root to the node. */
  path: string[];
}

interface ParsedFile {
  doc: ReturnType<typeof parseDocument>;
  lines: LineCounter;
  /** Length of the text. */
  length: number;
}

/** Whether the file's text is on one line (a final line break aside). */
function oneLine(parsed: ParsedFile): boolean {
  const starts = parsed.lines.lineStarts;
  return starts.length <= 1 || (starts.length === 2 && starts[1]! >= parsed.length);
}

/** Where an object was parsed: its file, and the key under its parent (the path is rebuilt only when asked for). */
interface Recorded {
  absolute: string;
  parent: Recorded | undefined;
  key: string;
}

function pathOf(recorded: Recorded): string[] {
  const path: string[] = [];
  for (let at: Recorded | undefined = recorded; at?.parent !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

export class SourceMap {
  private readonly origins = new WeakMap<object, Recorded>();
  private readonly files = new Map<string, ParsedFile | null>();
  private readonly eventFiles = new Map<string, EventIndex | null>();
  private readonly relativePaths = new Map<string, string>();

  constructor(
    private readonly root: string,
    /** Absolute path of the root spec file, blamed for nodes of unknown origin. */
    private readonly rootFile: string,
  ) {}

  /** Records every object of one parsed file; the first file to claim an object keeps it. */
  addFile(absolute: string, parsed: unknown): void {
    // One small record per object, not a copy of its path: a large document has tens of thousands of objects.
    const visit = (node: object, recorded: Recorded): void => {
      this.origins.set(node, recorded);
      const record = node as Record<string, unknown>;
      for (const key in record) {
        const child = record[key];
        if (child !== null && typeof child === 'object' && !this.origins.has(child)) visit(child, { absolute, parent: recorded, key });
      }
    };
    if (parsed !== null && typeof parsed === 'object' && !this.origins.has(parsed)) visit(parsed, { absolute, parent: undefined, key: '' });
  }

  /** Ties an object made while normalising to the node it was made from. */
  alias(made: object, from: object): void {
    const origin = this.origins.get(from);
    if (origin && !this.origins.has(made)) this.origins.set(made, origin);
  }

  origin(node: unknown): NodeOrigin | undefined {
    const recorded = node !== null && typeof node === 'object' ? this.origins.get(node) : undefined;
    return recorded === undefined ? undefined : { absolute: recorded.absolute, path: pathOf(recorded) };
  }

  /**
   * Where a node of the bundled document was written; `key` points at one of
   * its keys. The line is found when first read: that parses the file again
   * with its syntax tree, which only messages need, not every model node.
   */
  locate(node: unknown, key?: string): SourceLocation {
    const recorded = node !== null && typeof node === 'object' ? this.origins.get(node) : undefined;
    if (!recorded) return { file: this.relativePath(this.rootFile) };
    const map = this;
    let found: SourceLocation | undefined;
    const find = (): SourceLocation =>
      (found ??= map.locatePath(recorded.absolute, key === undefined ? pathOf(recorded) : [...pathOf(recorded), key]));
    return {
      file: this.relativePath(recorded.absolute),
      get line(): number | undefined {
        return find().line;
      },
      get column(): number | undefined {
        return find().column;
      },
    };
  }

  /** The line of the deepest key of `path` that exists in the file. */
  locatePath(absolute: string, path: readonly string[]): SourceLocation {
    const file = this.relativePath(absolute);
    const events = this.events(absolute);
    if (events) {
      const offset = events.offsetOf(path);
      return offset === undefined ? { file } : { file, ...events.position(offset) };
    }
    const parsed = this.parse(absolute);
    if (!parsed) return { file };
    const { offset } = descend(parsed.doc.contents, path);
    if (offset === undefined) return { file };
    const { line, col } = parsed.lines.linePos(offset);
    // A file on one line (minified JSON): the column is what finds the place.
    return oneLine(parsed) ? { file, line, column: col } : { file, line };
  }

  /** The plain value at `path` in a file, as written. */
  valueAt(absolute: string, path: readonly string[]): unknown {
    const parsed = this.parse(absolute);
    if (!parsed) return undefined;
    const { node, complete } = descend(parsed.doc.contents, path);
    return complete ? (yaml().isNode(node) ? node.toJSON() : node) : undefined;
  }

  /** The first YAML syntax error of a file, if any. */
  syntaxError(absolute: string): { line?: number; message: string } | undefined {
    const parsed = this.parse(absolute);
    const error = parsed?.doc.errors[0];
    if (!parsed || !error) return undefined;
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return { line: parsed.lines.linePos(error.pos[0]).line, message };
  }

  relativePath(absolute: string): string {
    let path = this.relativePaths.get(absolute);
    if (path === undefined) {
      path = relative(this.root, absolute).split('\\').join('/');
      this.relativePaths.set(absolute, path);
    }
    return path;
  }

  /** The file's parser events, for lines; null when it does not parse (then `yaml` reports the error). */
  private events(absolute: string): EventIndex | null {
    let index = this.eventFiles.get(absolute);
    if (index === undefined) {
      try {
        index = new EventIndex(readFileSync(absolute, 'utf8'));
      } catch {
        index = null;
      }
      this.eventFiles.set(absolute, index);
    }
    return index;
  }

  private parse(absolute: string): ParsedFile | null {
    let parsed = this.files.get(absolute);
    if (parsed === undefined) {
      try {
        const { LineCounter, parseDocument } = yaml();
        const lines = new LineCounter();
        const text = readFileSync(absolute, 'utf8');
        parsed = { doc: parseDocument(text, { lineCounter: lines }), lines, length: text.length };
      } catch {
        parsed = null;
      }
      this.files.set(absolute, parsed);
    }
    return parsed;
  }
}

/** Follows `path` down a YAML tree as far as it exists, noting the offset of the last key reached. */
function descend(start: unknown, path: readonly string[]): { node: unknown; offset?: number; complete: boolean } {
  const { isMap, isSeq } = yaml();
  let node = start;
  let offset: number | undefined = (node as YamlNode | null)?.range?.[0];
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => String((item.key as { value?: unknown } | null)?.value ?? item.key) === segment);
      if (!pair) return { node, offset, complete: false };
      offset = (pair.key as YamlNode | null)?.range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const item = node.items[Number(segment)] as YamlNode | undefined;
      if (!item) return { node, offset, complete: false };
      offset = item.range?.[0] ?? offset;
      node = item;
    } else {
      return { node, offset, complete: false };
    }
  }
  return { node, offset, complete: true };
}

/**
 * A file's places by key path, from js-yaml's flat event stream: what
 * `descend` finds in `yaml`'s syntax tree (the offset of the deepest key or
 * item of a path that exists), without building that tree, several times
 * slower for a large file. Messages about a large document's many notes only
 * need lines.
 */
class EventIndex {
  private readonly events: ReturnType<typeof import('js-yaml').parseEvents>;
  /** Index of the event after each collection's closing event. */
  private readonly after: Int32Array;
  private readonly lineStarts: number[] = [0];
  private readonly scalarValue: typeof import('js-yaml').getScalarValue;
  private readonly id: typeof import('js-yaml').EVENT_ID;
  private readonly quoted: ReadonlySet<number>;

  constructor(private readonly text: string) {
    const jsYaml = createRequire(import.meta.url)('js-yaml') as typeof import('js-yaml');
    this.events = jsYaml.parseEvents(text, {});
    this.scalarValue = jsYaml.getScalarValue;
    this.id = jsYaml.EVENT_ID;
    this.quoted = new Set([jsYaml.SCALAR_STYLE.SINGLE_QUOTED, jsYaml.SCALAR_STYLE.DOUBLE_QUOTED]);
    this.after = new Int32Array(this.events.length);
    const open: number[] = [];
    this.events.forEach((event, i) => {
      if (event.type === this.id.MAPPING || event.type === this.id.SEQUENCE || event.type === this.id.DOCUMENT) open.push(i);
      else if (event.type === this.id.POP) this.after[open.pop()!] = i + 1;
      else this.after[i] = i + 1;
    });
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  /** Where a node starts: a quoted scalar at its quote. */
  private start(i: number): number | undefined {
    const event = this.events[i];
    if (event === undefined) return undefined;
    if (event.type === this.id.SCALAR) return this.quoted.has(event.style) ? event.valueStart - 1 : event.valueStart;
    if (event.type === this.id.MAPPING || event.type === this.id.SEQUENCE) return event.start;
    return undefined;
  }

  offsetOf(path: readonly string[]): number | undefined {
    // The first document's root node.
    let node = this.events[0]?.type === this.id.DOCUMENT ? 1 : 0;
    let offset = this.start(node);
    for (const segment of path) {
      const event = this.events[node];
      let found: number | undefined;
      if (event?.type === this.id.MAPPING) {
        for (let key = node + 1; this.events[key]?.type !== this.id.POP && key < this.events.length; key = this.after[this.after[key]!]!) {
          const keyEvent = this.events[key]!;
          if (keyEvent.type === this.id.SCALAR && this.scalarValue(this.text, keyEvent) === segment) {
            offset = this.start(key) ?? offset;
            found = this.after[key];
            break;
          }
        }
      } else if (event?.type === this.id.SEQUENCE && /^[0-9]+$/.test(segment)) {
        let item = node + 1;
        for (let n = Number(segment); n > 0 && this.events[item]?.type !== this.id.POP; n--) item = this.after[item]!;
        if (this.events[item]?.type !== this.id.POP) {
          offset = this.start(item) ?? offset;
          found = item;
        }
      }
      if (found === undefined) return offset;
      node = found;
    }
    return offset;
  }

  /** 1-based line, and the column for a file on one line (minified JSON), where the line alone says nothing. */
  position(offset: number): { line: number; column?: number } {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    const oneLine = this.lineStarts.length <= 1 || (this.lineStarts.length === 2 && this.lineStarts[1]! >= this.text.length);
    return oneLine ? { line: low + 1, column: offset - this.lineStarts[low]! + 1 } : { line: low + 1 };
  }
}
