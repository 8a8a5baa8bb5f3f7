import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { banner } from '../banner.js';
import { runtimeFile } from '../runtime.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { buildClientView, type ClientView } from './view.js';

type Render = (view: ClientView) => string;

/** Compiled once per templates folder: generation runs may be repeated in one process (tests, watch). */
const compiled = new Map<string, Render>();

function loadTemplates(templatesDir: string): Render {
  const cached = compiled.get(templatesDir);
  if (cached) return cached;
  const hbs = Handlebars.create();
  const read = (name: string) => readFileSync(join(templatesDir, 'client', name), 'utf8');
  const options = { noEscape: true, strict: true };
  const render: Render = hbs.compile(read('client.ts.hbs'), options);
  compiled.set(templatesDir, render);
  return render;
}

export function renderClient(ctx: Pick<TargetContext, 'model' | 'templatesDir' | 'command'>): string {
  const render = loadTemplates(ctx.templatesDir);
  return render(buildClientView(ctx.model, banner(ctx.model, ctx.command, 'line')));
}

export const target: Target = {
  name: 'client',
  description: 'typed fetch client (generated/client.ts)',
  generate(ctx): OutputFile[] {
    return [
      { path: `${ctx.outDir}/client.ts`, contents: renderClient(ctx), ownership: 'generated' },
      { path: `${ctx.outDir}/client-runtime.ts`, contents: runtimeFile('client-runtime.ts', ctx.model, ctx.command), ownership: 'generated' },
    ];
  },
};
