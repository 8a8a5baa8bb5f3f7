import type ts from 'typescript';
import { typescript } from '../../cjs.js';

/**
 * Compiles TypeScript modules (path relative to the package -> source) to ES
 * modules with declarations, one file at a time: `transpileModule` for the
 * JavaScript and `transpileDeclaration` for the `.d.ts`, which needs no
 * program or lib files (seconds saved) because generated code declares its
 * types as `isolatedDeclarations` requires. Code that does not is a bug in a
 * target, so it stops the run.
 */
export function compileModules(sources: ReadonlyMap<string, string>, banner: string): Map<string, string> {
  const ts = typescript();
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    newLine: ts.NewLineKind.LineFeed,
    strict: true,
  };
  const files = new Map<string, string>();
  for (const [path, text] of sources) {
    const js = ts.transpileModule(text, { fileName: path, compilerOptions, reportDiagnostics: true });
    const dts = ts.transpileDeclaration(text, { fileName: path, compilerOptions, reportDiagnostics: true });
    const problem = [...(js.diagnostics ?? []), ...(dts.diagnostics ?? [])][0];
    if (problem !== undefined) {
      const where = problem.file && problem.start !== undefined ? `:${problem.file.getLineAndCharacterOfPosition(problem.start).line + 1}` : '';
      throw new Error(`client-package: ${path}${where}: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ')}`);
    }
    const base = path.replace(/\.ts$/, '');
    files.set(`${base}.js`, js.outputText);
    // Declaration emit drops the file's leading comment; every generated file starts with the banner.
    files.set(`${base}.d.ts`, dts.outputText.startsWith(banner) ? dts.outputText : `${banner}\n${dts.outputText}`);
  }
  return files;
}
