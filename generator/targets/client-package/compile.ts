import type ts from 'typescript';
import { typescript } from '../../cjs.js';

/**
 * The global types declaration emit may name, as `ts.transpileDeclaration`
 * gives it (that function's own lib is not exported). No program here
 * loads TypeScript's real lib files.
 */
const LIB_NAME = 'lib.d.ts';
const LIB = `/// <reference no-default-lib="true"/>
interface Boolean {}
interface Function {}
interface CallableFunction {}
interface NewableFunction {}
interface IArguments {}
interface Number {}
interface Object {}
interface RegExp {}
interface String {}
interface Array<T> { length: number; [n: number]: T; }
interface SymbolConstructor {
    (desc?: string | number): symbol;
    for(name: string): symbol;
    readonly toStringTag: symbol;
}
declare var Symbol: SymbolConstructor;
interface Symbol {
    readonly [Symbol.toStringTag]: string;
}`;

/**
 * Compiles TypeScript modules (path relative to the package -> source) to ES
 * modules with declarations, each file as `transpileModule` and
 * `transpileDeclaration` would (no type check, no module resolution, no lib
 * files), but in one program: every file is parsed and bound once for both
 * outputs, where those two functions parse and bind it once each. That
 * requires generated client code to satisfy `isolatedDeclarations`
 * (explicit types on exports); code that does not is a bug in a target, so
 * it stops the run.
 */
export function compileModules(sources: ReadonlyMap<string, string>, banner: string): Map<string, string> {
  const ts = typescript();
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    newLine: ts.NewLineKind.LineFeed,
    strict: true,
  };
  // What transpileModule and transpileDeclaration set: each file on its own, no type check.
  Object.assign(options, {
    isolatedModules: true,
    noLib: true,
    noResolve: true,
    noCheck: true,
    declaration: true,
    isolatedDeclarations: true,
  } satisfies ts.CompilerOptions);

  const outputs = new Map<string, string>();
  const host: ts.CompilerHost = {
    getSourceFile: (fileName, languageVersion) => {
      const text = fileName === LIB_NAME ? LIB : sources.get(fileName);
      return text === undefined ? undefined : ts.createSourceFile(fileName, text, languageVersion);
    },
    writeFile: (name, text) => void outputs.set(name, text),
    getDefaultLibFileName: () => LIB_NAME,
    useCaseSensitiveFileNames: () => true,
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: () => '',
    getNewLine: () => '\n',
    fileExists: (fileName) => sources.has(fileName) || fileName === LIB_NAME,
    readFile: () => '',
    directoryExists: () => true,
    getDirectories: () => [],
  };
  const program = ts.createProgram([...sources.keys(), LIB_NAME], options, host);
  const emitted = program.emit();
  const problem = [...program.getSyntacticDiagnostics(), ...program.getOptionsDiagnostics(), ...emitted.diagnostics][0];
  if (problem !== undefined) {
    const where = problem.file ? `${problem.file.fileName}${problem.start === undefined ? '' : `:${problem.file.getLineAndCharacterOfPosition(problem.start).line + 1}`}` : 'options';
    throw new Error(`client-package: ${where}: ${ts.flattenDiagnosticMessageText(problem.messageText, ' ')}`);
  }

  const files = new Map<string, string>();
  for (const path of sources.keys()) {
    const base = path.replace(/\.ts$/, '');
    const js = outputs.get(`${base}.js`);
    const dts = outputs.get(`${base}.d.ts`);
    if (js === undefined || dts === undefined) throw new Error(`client-package: ${path}: the compiler wrote no ${js === undefined ? '.js' : '.d.ts'}`);
    files.set(`${base}.js`, js);
    // Declaration emit drops the file's leading comment; every generated file starts with the banner.
    files.set(`${base}.d.ts`, dts.startsWith(banner) ? dts : `${banner}\n${dts}`);
  }
  return files;
}
