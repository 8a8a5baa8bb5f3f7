/**
 * The client as a package ready to publish: the TypeScript the `types`,
 * `client` and `validators` targets produce, compiled in memory to ES modules
 * with declarations, plus package.json and a README. Zero dependencies; when
 * the `query` target runs too, its options are the `./query` entry and
 * `@tanstack/query-core` an optional peer (decision 0032).
 */
import { posix } from 'node:path';
import { banner } from '../banner.js';
import { QUERY_PEER_RANGE } from '../query/peer.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { compileModules } from './compile.js';
import { loadTemplates } from './templates.js';
import { buildClientPackageView, type EntryPoint } from './view.js';
import { about, SOURCES } from './about.js';

/** Folder of the package inside the output directory. */
export const PACKAGE_DIR = 'client-package';

const ENTRY_POINTS: EntryPoint[] = [
  { subpath: '.', module: 'client' },
  // The smallest bundles import `connect` and each operation from its own module (docs/decisions/0024-client-per-operation.md).
  { subpath: './connect', module: 'client/connect' },
  { subpath: './operations/*', module: 'client/operations/*' },
  { subpath: './types', module: 'types' },
  { subpath: './validators', module: 'validators' },
  { subpath: './query', module: 'query' },
  { subpath: './query/*', module: 'query/*' },
];

export const target: Target = {
  ...about,
  async generate(ctx: TargetContext): Promise<OutputFile[]> {
    const sources = new Map<string, string>();
    for (const name of SOURCES) {
      for (const file of await ctx.filesOf(name)) {
        const inOut = posix.relative(ctx.outDir, file.path);
        if (file.ownership === 'generated' && file.path.endsWith('.ts') && !inOut.startsWith('..')) sources.set(inOut, file.contents);
      }
    }
    const compiled = compileModules(sources, banner(ctx.model, ctx.command, 'line'));
    const dir = posix.join(ctx.outDir, PACKAGE_DIR);
    const files = [...compiled.keys()].sort();
    const view = buildClientPackageView(ctx.model, {
      ...ctx.options.clientPackage,
      banner: banner(ctx.model, ctx.command, 'html'),
      optionalPeers: compiled.has('query.js') ? { '@tanstack/query-core': QUERY_PEER_RANGE } : {},
      entryPoints: ENTRY_POINTS.filter((entry) => compiled.has(`${entry.module}.js`) || (entry.module.endsWith('/*') && [...compiled.keys()].some((path) => path.startsWith(entry.module.slice(0, -1))))),
      files,
    });
    const templates = loadTemplates(ctx.templatesDir);
    const out = (path: string, contents: string): OutputFile => ({ path: posix.join(dir, path), contents, ownership: 'generated' });
    return [
      out('package.json', templates.packageJson(view)),
      out('README.md', templates.readme(view)),
      ...files.map((path) => out(path, compiled.get(path)!)),
    ];
  },
};
