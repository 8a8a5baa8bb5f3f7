/**
 * `file:line`, or `file:line:column` where a column is given (a document
 * written on one line, as minified JSON is), or `file` alone.
 */
export function formatLocation(at: { file: string; line?: number | undefined; column?: number | undefined }): string {
  if (at.line === undefined) return at.file;
  return at.column === undefined ? `${at.file}:${at.line}` : `${at.file}:${at.line}:${at.column}`;
}

/** A problem in the spec that stops the run, reported as `file:line: message`. */
export class SpecError extends Error {
  override readonly name = 'SpecError';

  constructor(
    /** Spec file, relative to the project root. */
    readonly file: string,
    /** 1-based line, when known. */
    readonly line: number | undefined,
    readonly detail: string,
    /** 1-based column, given only for a document written on one line. */
    readonly column?: number,
  ) {
    super(`${formatLocation({ file, line, column })}: ${detail}`);
  }
}
