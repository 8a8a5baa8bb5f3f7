/**
 * `npm run lint`, after `tsc --noEmit`: type-checks every golden folder of
 * generated TypeScript under test/fixtures/ (`<fixture>/golden/*.ts`) with the
 * project's compiler options (strict, noUncheckedIndexedAccess, ...) and, as
 * users who compile generated code strictly set them, noUnusedLocals and
 * noUnusedParameters.
 *
 * The goldens keep only what is generated per document. The runtime folder
 * their `validators.ts` imports (`./validators-runtime/index.js`) is the same
 * for every document, so it is not stored beside them: `rootDirs` makes each
 * golden folder and `runtime/` one virtual folder, and the import resolves to
 * `runtime/validators-runtime/index.ts`, the folder the generator copies into
 * its output (the golden tests assert that it does). tsconfig.json leaves the
 * goldens out for this reason.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './process.js';
import { typeCheck } from './type-check.js';

/** Every `golden` folder below `dir` that holds TypeScript. */
function goldenFolders(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'golden' && readdirSync(path).some((name) => name.endsWith('.ts'))) found.push(path);
    else found.push(...goldenFolders(path));
  }
  return found;
}

const folders = goldenFolders(join(repoRoot, 'test/fixtures'));
const files = folders.flatMap((folder) => readdirSync(folder).filter((name) => name.endsWith('.ts')).map((name) => join(folder, name)));
const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (config === undefined) throw new Error('tsconfig.json: not readable');
const errors = typeCheck(files, { ...config.options, noUnusedLocals: true, noUnusedParameters: true, noEmit: true, rootDirs: [join(repoRoot, 'runtime'), ...folders] });
if (errors.length > 0) {
  for (const line of errors) console.error(line);
  process.exitCode = 1;
} else {
  console.log(`goldens type-check: ${files.length} files in ${folders.length} folders`);
}
