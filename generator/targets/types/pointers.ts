/**
 * openapi-typescript's `createRef`, in linear time. The transform names
 * every node it visits by a JSON pointer, built with `createRef([parent's
 * pointer, key, ...])`, which splits the parent's pointer into segments,
 * unescapes each (`~1`, `~0`, percent-encoding), drops empty ones and
 * escapes them again: the whole path, at every level, for every node. On a
 * document of a thousand operations that was a tenth of the transform.
 * A pointer that came out of `createRef` already reads the same after that
 * round trip unless it holds `%` or a `~` that starts no escape, so such a
 * part is appended as it is; any other part goes through the original
 * steps. `test/generator/targets/types/pointers.test.ts` compares the two.
 * Both replacements are in place only while our transform runs.
 */

/** What `createRef` takes: `undefined`, `null` and `''` are skipped, numbers are keys. */
export type RefPart = string | number | undefined | null;

export interface RefUtils {
  parseRef(ref: string): { pointer: string[] };
  escapePointer<T extends string | number>(fragment: T): T;
}

/** A pointer body (after `#/`) whose segments are non-empty, free of `%`, and whose every `~` starts `~0` or `~1`. */
const CANONICAL = /^(?:[^~%/]|~[01])+(?:\/(?:[^~%/]|~[01])+)*$/;

/** `createRef(parts)` as openapi-typescript's `lib/utils` writes it, with `refUtils` its Redocly's `lib/ref-utils`. */
export function fastCreateRef(refUtils: RefUtils): (parts: readonly RefPart[]) => string {
  return (parts) => {
    let pointer = '#';
    for (const part of parts) {
      if (part === undefined || part === null || part === '') continue;
      const text = String(part);
      // `parseRef` reads what follows the first `#/`, up to a second one.
      const start = text.indexOf('#/');
      if (start !== -1) {
        const end = text.indexOf('#/', start + 2);
        const body = end === -1 ? text.slice(start + 2) : text.slice(start + 2, end);
        if (CANONICAL.test(body)) {
          pointer += `/${body}`;
          continue;
        }
      }
      const segments = refUtils.parseRef(text).pointer;
      if (segments.length > 0) for (const segment of segments) pointer += `/${refUtils.escapePointer(segment)}`;
      else pointer += `/${refUtils.escapePointer(part)}`;
    }
    return pointer;
  };
}

/**
 * `parseRef` remembering what it read: openapi-typescript parses a `$ref`
 * at each place it is written (`oapiRef`), and a large document names the
 * same few hundred components tens of thousands of times. Each call still
 * gets objects of its own (callers pop from `pointer`).
 */
export function rememberingParseRef(parseRef: RefUtils['parseRef']): RefUtils['parseRef'] {
  const read = new Map<string, { uri: unknown; pointer: string[] }>();
  return (ref) => {
    let parsed = read.get(ref);
    if (parsed === undefined) read.set(ref, (parsed = parseRef(ref) as { uri: unknown; pointer: string[] }));
    return { uri: parsed.uri, pointer: parsed.pointer.slice() };
  };
}

/**
 * Runs `body` with `utils.createRef` (the module object every transform
 * module reads it from at each call) replaced by `fastCreateRef`, and
 * `refUtils.parseRef` (likewise) by `rememberingParseRef`; puts the
 * originals back afterwards, so `openapiTS()` itself is left as shipped.
 */
export function withFastRefs<T>(utils: { createRef: unknown }, refUtils: RefUtils, body: () => T): T {
  const { createRef } = utils;
  const { parseRef } = refUtils;
  refUtils.parseRef = rememberingParseRef(parseRef);
  utils.createRef = fastCreateRef(refUtils);
  try {
    return body();
  } finally {
    utils.createRef = createRef;
    refUtils.parseRef = parseRef;
  }
}
