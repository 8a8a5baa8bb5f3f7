/**
 * `query.ts`: TanStack Query options for every operation, built on the
 * client's per-operation functions (decision 0030). Off unless named: it
 * needs `@tanstack/query-core` in the project, which a project that did not
 * ask for it should not have to install.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { installed } from '../../cli/peers.js';
import { banner } from '../banner.js';
import { runtimeFile } from '../runtime.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { QUERY_PEERS } from './peer.js';
import { buildQueryView, type QueryView } from './view.js';

/** Compiled once per templates folder: generation runs may be repeated in one process (tests, watch). */
const compiled = new Map<string, (view: QueryView) => string>();

function loadTemplate(templatesDir: string): (view: QueryView) => string {
  let render = compiled.get(templatesDir);
  if (render === undefined) {
    const template = Handlebars.create().compile<QueryView>(readFileSync(join(templatesDir, 'query', 'query.ts.hbs'), 'utf8'), { noEscape: true, strict: true });
    render = (view) => `${template(view).replace(/\r\n?/g, '\n').trimEnd()}\n`;
    compiled.set(templatesDir, render);
  }
  return render;
}

/** `query.ts` and the runtime it imports, by path relative to the output folder. */
export function renderQuery(ctx: Pick<TargetContext, 'model' | 'templatesDir' | 'command'>): Map<string, string> {
  const view = buildQueryView(ctx.model, banner(ctx.model, ctx.command, 'line'));
  return new Map([
    ['query.ts', loadTemplate(ctx.templatesDir)(view)],
    ['query-runtime.ts', runtimeFile('query-runtime.ts', ctx.model, ctx.command)],
  ]);
}

export const target: Target = {
  name: 'query',
  description: 'TanStack Query options per operation (generated/query.ts); runs only when named',
  peers: QUERY_PEERS,
  byDefault: false,
  generate(ctx): OutputFile[] {
    const missing = QUERY_PEERS.filter((name) => !installed(name, ctx.root));
    if (missing.length > 0) {
      throw new Error(`the query target needs ${missing.join(' and ')}, not installed: \`npm install --save-dev ${missing.join(' ')}\`, or leave \`query\` out of the targets`);
    }
    return [...renderQuery(ctx)].map(([path, contents]): OutputFile => ({ path: `${ctx.outDir}/${path}`, contents, ownership: 'generated' }));
  },
};
