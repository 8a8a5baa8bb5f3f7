/** A problem in the spec that stops the run, reported as `file:line: message`. */
export class SpecError extends Error {
  override readonly name = 'SpecError';

  constructor(
    /** Spec file, relative to the project root. */
    readonly file: string,
    /** 1-based line, when known. */
    readonly line: number | undefined,
    readonly detail: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${line}`}: ${detail}`);
  }
}
