/**
 * The document a run checks against: the model, the bundled document with
 * its source map (for file and line), and the response validators and
 * request decoders of the spec, generated in memory by the pipeline and
 * compiled to a temporary folder (as `serve --mock` does).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import { typescript } from '../cjs.js';
import type { GenerateConfig } from '../config.js';
import type { SourceMap } from '../load/index.js';
import type { ApiModel } from '../model/types.js';
import { produce } from '../cli/pipeline.js';
import { importModule } from '../esm.js';

const OUT = '.teamchat-conformance';

export interface Issue {
  path: string;
  message: string;
}

/** What the run needs of the generated validators module. */
export interface Validators {
  validateResponse(operation: string, status: number, mediaType: string | undefined, body: unknown, options?: { strict?: boolean; allErrors?: boolean }): Issue[] | undefined;
  validateResponseHeaders(operation: string, status: number, headers: { get(name: string): string | null }, options?: { strict?: boolean; allErrors?: boolean }): Issue[] | undefined;
  decoders: Record<string, (raw: RawRequest) => { ok: boolean; error?: { parameter: string; rule: string; msg: string } }>;
}

/** The request shape the generated decoders read (runtime/validators-runtime/). */
export interface RawRequest {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  body: Record<string, string | string[]>;
  headers?: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | string[]>;
  files?: { field: string; filename: string; contentType: string; data: Uint8Array }[];
  content?: { mediaType: string; value: unknown };
}

export interface ConformanceDocument {
  model: ApiModel;
  document: Record<string, unknown>;
  sources: SourceMap;
  validators: Validators;
}

export async function loadDocument(config: GenerateConfig): Promise<ConformanceDocument> {
  const produced = await produce({ ...config, outDir: OUT, targets: ['validators'], check: true });
  // `validators.ts` and the runtime folder it imports (`validators-runtime/index.js`, ...).
  const files = produced.targets.flatMap((t) => t.files).filter((file) => file.path.startsWith(`${OUT}/`) && file.path.endsWith('.ts'));
  const ts = typescript();
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-conformance-'));
  try {
    // The imports name `.js` files: compiled as such, in a folder that makes them ES modules.
    await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
    for (const file of files) {
      const { outputText } = ts.transpileModule(file.contents, {
        fileName: file.path,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const path = join(dir, posix.relative(OUT, file.path).replace(/\.ts$/, '.js'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, outputText);
    }
    const validators = await importModule<Validators>(pathToFileURL(join(dir, 'validators.js')).href);
    const document = produced.model.openapi ?? {};
    return { model: produced.model, document, sources: produced.sources, validators };
  } finally {
    // The modules are loaded: the files are no longer needed.
    await rm(dir, { recursive: true, force: true });
  }
}
