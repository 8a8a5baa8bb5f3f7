/** Media types as `Content-Type` gives them, and the declared one that takes a received one. */

/** The media type of a `Content-Type` value: lower case, without parameters. */
export function mediaTypeOf(contentType: string): string {
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The index in `declared` of the media type that takes `received`: the same
 * type (parameters aside on both sides), else a declared `type/*`, else a
 * declared `*\/*`; -1 when none does.
 */
export function matchMediaType(received: string, declared: readonly string[]): number {
  const type = mediaTypeOf(received);
  const exact = declared.indexOf(type);
  if (exact !== -1) return exact;
  // A declared type with parameters (`application/json;charset=utf-8`) takes the same type without them.
  for (let i = 0; i < declared.length; i++) if (mediaTypeOf(declared[i]!) === type) return i;
  const slash = type.indexOf('/');
  const range = declared.indexOf(slash === -1 ? type : type.slice(0, slash) + '/*');
  return range !== -1 ? range : declared.indexOf('*/*');
}
