import type { ImportDeclaration, Project, SourceFile } from 'ts-morph';
import { tsMorph } from '../../cjs.js';

/**
 * The parts of a handler file the generator owns. Everything else in the
 * file (the body above all) is hand-written and never touched.
 */
export interface OwnedParts {
  /** Operation name: the exported handler's name and its key in `Handlers`. */
  camel: string;
  /** Module specifier of the generated server module, relative to the handler file. */
  serverModule: string;
  /** Full text of the handler's doc comment. */
  jsDoc: string;
  /** Text of the handler's type annotation. */
  typeAnnotation: string;
}

export type MergeResult = { contents: string; problem?: undefined } | { contents: string; problem: string };

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** `Handlers['updateStream']`: the annotation every handler carries. */
export function handlerType(camel: string): string {
  return `Handlers['${camel}']`;
}

/**
 * Brings an existing handler file in step with the spec: the doc comment and
 * type annotation of `export const <camel>`, and a `Handlers` import from the
 * generated server module. Returns the input unchanged when they already
 * match, and a problem (file unchanged) when the handler cannot be found.
 */
export function mergeHandler(project: () => Project, path: string, existing: string, owned: OwnedParts): MergeResult {
  if (inStep(existing, owned)) return { contents: existing };
  const file = project().createSourceFile(path, existing, { overwrite: true });
  try {
    const declaration = file.getVariableDeclaration(owned.camel);
    const statement = declaration?.getVariableStatement();
    if (declaration === undefined || statement === undefined || !statement.isExported()) {
      return {
        contents: existing,
        problem: `${path}: no \`export const ${owned.camel}\`, so its signature cannot be kept in step with the spec`,
      };
    }
    const edits: Edit[] = [];
    const docs = statement.getJsDocs();
    const lastDoc = docs.at(-1);
    if (lastDoc === undefined) {
      const start = statement.getStart();
      edits.push({ start, end: start, text: `${owned.jsDoc}\n` });
    } else if (lastDoc.getText() !== owned.jsDoc) {
      edits.push({ start: lastDoc.getStart(), end: lastDoc.getEnd(), text: owned.jsDoc });
    }
    const typeNode = declaration.getTypeNode();
    if (typeNode === undefined) {
      const end = declaration.getNameNode().getEnd();
      edits.push({ start: end, end, text: `: ${owned.typeAnnotation}` });
    } else if (typeNode.getText() !== owned.typeAnnotation) {
      edits.push({ start: typeNode.getStart(), end: typeNode.getEnd(), text: owned.typeAnnotation });
    }
    const importEdit = handlersImportEdit(file, owned.serverModule);
    if (importEdit !== undefined) edits.push(importEdit);
    return { contents: applyEdits(existing, edits) };
  } finally {
    project().removeSourceFile(file);
  }
}

/**
 * The common case, decided from the text alone so a run whose handlers are
 * all current never loads ts-morph (a second TypeScript, a quarter second):
 * the doc comment right above `export const <camel>: <annotation> =`, and
 * one import of the server module, which takes `type Handlers` as written by
 * the scaffold. Anything else goes through the syntax tree.
 */
function inStep(existing: string, owned: OwnedParts): boolean {
  if (!existing.includes(`${owned.jsDoc}\nexport const ${owned.camel}: ${owned.typeAnnotation} = `)) return false;
  const specifier = `from '${owned.serverModule}';`;
  if (existing.indexOf(specifier) !== existing.lastIndexOf(specifier)) return false;
  return existing.split('\n').some((line) => /^import (type \{ Handlers \}|\{ ApiError, type Handlers \}) from '/.test(line) && line.endsWith(specifier));
}

/**
 * Makes sure `Handlers` is imported from the generated server module: adds
 * it to an import of that module, or re-points an import of a moved
 * `server.js` module, or inserts a new import line before the first import.
 */
function handlersImportEdit(file: SourceFile, serverModule: string): Edit | undefined {
  const imports = file.getImportDeclarations();
  const fromServer =
    imports.find((declaration) => declaration.getModuleSpecifierValue() === serverModule) ??
    imports.find((declaration) => /(^|\/)server\.js$/.test(declaration.getModuleSpecifierValue()) && importsHandlers(declaration));
  if (fromServer === undefined) {
    const anchor = imports[0];
    const start = anchor === undefined ? firstStatementStart(file) : anchor.getStart();
    return { start, end: start, text: `import type { Handlers } from '${serverModule}';\n` };
  }
  if (fromServer.getModuleSpecifierValue() !== serverModule) {
    const specifier = fromServer.getModuleSpecifier();
    return { start: specifier.getStart(), end: specifier.getEnd(), text: `'${serverModule}'` };
  }
  if (importsHandlers(fromServer)) return undefined;
  const named = fromServer.getNamedImports();
  const last = named.at(-1);
  if (last === undefined || fromServer.getDefaultImport() !== undefined || fromServer.getNamespaceImport() !== undefined) {
    const start = fromServer.getEnd();
    return { start, end: start, text: `\nimport type { Handlers } from '${serverModule}';` };
  }
  const text = fromServer.isTypeOnly() ? ', Handlers' : ', type Handlers';
  return { start: last.getEnd(), end: last.getEnd(), text };
}

function importsHandlers(declaration: ImportDeclaration): boolean {
  return declaration.getNamedImports().some((named) => named.getName() === 'Handlers' && named.getAliasNode() === undefined);
}

/** Start of the first statement, after any leading comments (the file's header). */
function firstStatementStart(file: SourceFile): number {
  const first = file.getStatements()[0];
  return first === undefined ? file.getEnd() : first.getStart(true);
}

function applyEdits(text: string, edits: Edit[]): string {
  let result = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) {
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  }
  return result;
}

/** One in-memory project for all handler files of a run; no file system, no language service. */
export function scaffoldProject(): Project {
  const { Project: InMemoryProject } = tsMorph();
  return new InMemoryProject({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    compilerOptions: { allowJs: false },
  });
}
