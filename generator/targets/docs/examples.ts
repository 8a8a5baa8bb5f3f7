import type { Operation, Parameter } from '../../model/types.js';

/** The reference server of `npm start` and the example organization's owner (docs/decisions/0002). */
export const EXAMPLE_ORIGIN = 'http://127.0.0.1:9991';
export const EXAMPLE_EMAIL = 'owner@example.com';

/** Parameter values of the operation's first request example (empty when it has none). */
export function exampleArguments(operation: Operation): [Parameter, unknown][] {
  const value = operation.requestExamples[0]?.value;
  const given = isRecord(value) ? value : {};
  return operation.parameters
    .filter((parameter) => Object.hasOwn(given, parameter.name))
    .map((parameter) => [parameter, given[parameter.name]]);
}

/** A parameter value as its form field carries it (DESIGN.md "Wire format"). */
export function wireValue(parameter: Parameter, value: unknown): string {
  if (parameter.encoding === 'json') return JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The file name a file parameter's example names, for `-F name=@file` and the client's `UploadFile`. */
export function exampleFileName(value: unknown): string {
  if (typeof value !== 'string') return 'file.bin';
  // A binary example is often prose about the file ("contents of notes.pdf"): take the name in it.
  if (/^[\w./-]+$/.test(value)) return value;
  return /[\w-]+\.[A-Za-z0-9]+/.exec(value)?.[0] ?? 'file.bin';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
