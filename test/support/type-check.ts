/**
 * Type-checks generated code the way a user's strict project would:
 * `strict`, `noUncheckedIndexedAccess`, NodeNext modules, ES2022, Node's
 * types from this repository's install. Suites add or override options
 * (browser globals only, `exactOptionalPropertyTypes`, ...).
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

export const STRICT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  skipLibCheck: true,
  typeRoots: [join(repoRoot, 'node_modules/@types')],
  types: ['node'],
};

/**
 * The diagnostics of one program over `files`, one line each:
 * `<file relative to base>:<line>: <message>` (empty when it type-checks).
 */
export function typeCheck(files: readonly string[], options: ts.CompilerOptions = {}, base = repoRoot): string[] {
  const program = ts.createProgram([...files], { ...STRICT_OPTIONS, ...options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file === undefined ? '' : `${relative(base, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: `;
    return at + ts.flattenDiagnosticMessageText(d.messageText, ' ');
  });
}
