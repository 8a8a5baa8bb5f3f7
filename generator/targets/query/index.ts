/**
 * `query.ts`: TanStack Query options for every operation, built on the
 * client's per-operation functions (decision 0032). Off unless named: it
 * needs `@tanstack/query-core` in the project, which a project that did not
 * ask for it should not have to install.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installed } from '../../cli/peers.js';
import { compileTemplate, templateEnvironment } from '../../template-cache.js';
import { banner } from '../banner.js';
import { runtimeFolderFiles } from '../runtime.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { QUERY_PEERS } from './peer.js';
import { buildQueryView, type QueryOperationView, type QueryView } from './view.js';
import { about } from './about.js';

interface Render {
  /** `query.ts`: the error type and every operation's exports. */
  index(view: QueryView): string;
  /** `query/<operation>.ts`: one operation's key and options. */
  operation(view: QueryOperationView & Pick<QueryView, 'banner' | 'errorType'>): string;
}

/** Compiled once per templates folder: generation runs may be repeated in one process (tests, watch). */
const compiled = new Map<string, Render>();

function loadTemplates(templatesDir: string): Render {
  let render = compiled.get(templatesDir);
  if (render === undefined) {
    // Handlebars' runtime and the cache of precompiled templates, as every target renders (decision 0031).
    const hbs = templateEnvironment();
    const compile = <V>(file: string) => {
      const template = compileTemplate<V>(hbs, readFileSync(join(templatesDir, 'query', file), 'utf8'));
      return (view: V) => `${template(view).replace(/\r\n?/g, '\n').trimEnd()}\n`;
    };
    render = { index: compile('query.ts.hbs'), operation: compile('operation.ts.hbs') };
    compiled.set(templatesDir, render);
  }
  return render;
}

/**
 * `query.ts`, each operation's module (`query/<operation>.ts`, so an app
 * importing one keeps no other, as with the client's: decision 0024) and the
 * runtime they import, by path relative to the output folder.
 */
export function renderQuery(ctx: Pick<TargetContext, 'model' | 'templatesDir' | 'command'>): Map<string, string> {
  const view = buildQueryView(ctx.model, banner(ctx.model, ctx.command, 'line'));
  const render = loadTemplates(ctx.templatesDir);
  return new Map([
    ['query.ts', render.index(view)],
    ...view.operations.map((operation): [string, string] => [`query/${operation.file}.ts`, render.operation({ ...operation, banner: view.banner, errorType: view.errorType })]),
    ...runtimeFolderFiles('query-runtime', ctx.model, ctx.command),
  ]);
}

export const target: Target = {
  ...about,
  generate(ctx): OutputFile[] {
    const missing = QUERY_PEERS.filter((name) => !installed(name, ctx.root));
    if (missing.length > 0) {
      throw new Error(`the query target needs ${missing.join(' and ')}, not installed: \`npm install --save-dev ${missing.join(' ')}\`, or leave \`query\` out of the targets`);
    }
    return [...renderQuery(ctx)].map(([path, contents]): OutputFile => ({ path: `${ctx.outDir}/${path}`, contents, ownership: 'generated' }));
  },
};
