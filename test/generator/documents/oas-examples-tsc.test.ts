/**
 * Every @readme/oas-examples document (OpenAPI 3.0 and 3.1, read from
 * node_modules) generated with every target, and all of the TypeScript they
 * produce (types, validators, client, server bindings, mock and handler
 * index, the runtimes, handler scaffolds) type-checked as ONE program under
 * strict, noUncheckedIndexedAccess, noUnusedLocals and noUnusedParameters. One program keeps it to one parse of
 * the libraries and one check, so the whole corpus costs about what a
 * handful of per-document checks would (about 40 s of CPU: generation 16 s,
 * the program 20 s, on the 2-core machine).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { typeCheck } from '../../support/type-check.js';
import { afterAll, expect, it } from 'vitest';
import { generate } from '../../../generator/cli/pipeline.js';
import { targets } from '../../../generator/targets/index.js';
import { repoRoot } from '../../support/process.js';
import { config } from '../../support/generator.js';

const EXAMPLES = dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));
const documents = ['3.0', '3.1'].flatMap((version) =>
  readdirSync(join(EXAMPLES, version, 'json'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `${version}-${f.replace(/\.json$/, '')}`, file: join(EXAMPLES, version, 'json', f) })),
);
// Under the repository, so that the outputs resolve fastify and the other packages they import.
const base = join(repoRoot, 'test/artifacts');
mkdirSync(base, { recursive: true });
const scratch = mkdtempSync(join(base, 'oas-examples-tsc-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every `.ts` file under `dir`. */
function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

it('generates every oas-examples document with every target, and the outputs type-check as one program', async () => {
  expect(documents.length).toBeGreaterThan(40);
  const names = targets.map((t) => t.name);
  const failed: string[] = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (const { name, file } of documents) {
    const root = join(scratch, name);
    mkdirSync(join(root, 'spec'), { recursive: true });
    cpSync(file, join(root, 'spec/openapi.json'));
    try {
      // Named, so the targets that run only when named (query) run and are type-checked too.
      const result = await generate(config(root, { spec: 'spec/openapi.json', only: names.join(',') }, names), targets);
      expect(result.targets.map((t) => t.name)).toEqual(names);
    } catch (error) {
      failed.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  expect(failed).toEqual([]);
  const generated = performance.now();
  const generatedCpu = process.cpuUsage(cpu);

  const files = documents.flatMap(({ name }) => [...tsFiles(join(scratch, name, 'generated')), ...tsFiles(join(scratch, name, 'server/handlers'))]);
  // Every document gives at least its types, validators, client and bindings.
  expect(files.length).toBeGreaterThan(documents.length * 6);
  // As strict a user's project may be: unused locals and parameters too, but not in the handler scaffolds, whose parameters are there for the code their owner writes.
  const errors = typeCheck(files, { lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], noUnusedLocals: true, noUnusedParameters: true }, scratch).filter(
    (line) => !(/^[^/]+\/server\/handlers\//.test(line) && / is declared but (its value is )?never (read|used)\.$/.test(line)),
  );
  const total = process.cpuUsage(cpu);
  console.log(`generation ${Math.round(generated - started)} ms (cpu ${Math.round((generatedCpu.user + generatedCpu.system) / 1000)}), one program ${Math.round(performance.now() - generated)} ms (cpu ${Math.round((total.user + total.system - generatedCpu.user - generatedCpu.system) / 1000)}), ${files.length} files`);
  expect(errors).toEqual([]);
}, 600_000);
