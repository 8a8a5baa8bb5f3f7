import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileTemplate, templateEnvironment } from '../../template-cache.js';
import { banner } from '../banner.js';
import { runtimeFile, runtimeModules } from '../runtime.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { buildClientView, type ClientView, type OperationView } from './view.js';
import { about } from './about.js';

interface Render {
  client(view: ClientView): string;
  connect(view: ClientView): string;
  /** One operation's function (`client/operations/<operation>.ts`). */
  operation(view: OperationView & Pick<ClientView, 'banner' | 'withChecks'>): string;
  /** One operation's response checks (`client/checks/<operation>.ts`). */
  checks(view: OperationView & Pick<ClientView, 'banner' | 'bodyCodedErrors' | 'newerErrorFieldsLiteral'>): string;
}

/** The files of the client target, relative to the output folder. */
export type ClientFiles = Map<string, string>;

/** Compiled once per templates folder: generation runs may be repeated in one process (tests, watch). */
const compiled = new Map<string, Render>();

function loadTemplates(templatesDir: string): Render {
  const cached = compiled.get(templatesDir);
  if (cached) return cached;
  const hbs = templateEnvironment();
  const read = (name: string) => readFileSync(join(templatesDir, 'client', name), 'utf8');
  const render: Render = {
    client: compileTemplate(hbs, read('client.ts.hbs')),
    connect: compileTemplate(hbs, read('connect.ts.hbs')),
    operation: compileTemplate(hbs, read('operation.ts.hbs')),
    checks: compileTemplate(hbs, read('checks.ts.hbs')),
  };
  compiled.set(templatesDir, render);
  return render;
}

/**
 * `client.ts`, `client/connect.ts`, each operation's module
 * (`client/operations/<file>.ts`) and, with `withChecks`, its response
 * checks (`client/checks/<file>.ts`, which import `validators.ts`), by path
 * relative to the output folder; the runtime folder aside.
 */
export function renderClient(ctx: Pick<TargetContext, 'model' | 'templatesDir' | 'command'>, withChecks = true): ClientFiles {
  const render = loadTemplates(ctx.templatesDir);
  const view = buildClientView(ctx.model, banner(ctx.model, ctx.command, 'line'), withChecks);
  const shared = { banner: view.banner, withChecks, bodyCodedErrors: view.bodyCodedErrors, newerErrorFieldsLiteral: view.newerErrorFieldsLiteral };
  const files: ClientFiles = new Map([
    ['client.ts', render.client(view)],
    ['client/connect.ts', render.connect(view)],
  ]);
  for (const operation of view.operations) {
    files.set(`client/operations/${operation.file}.ts`, render.operation({ ...operation, ...shared }));
    if (withChecks) files.set(`client/checks/${operation.file}.ts`, render.checks({ ...operation, ...shared }));
  }
  return files;
}

/**
 * Whether the output will have `validators.ts` for the checks modules to
 * import: the validators target runs (chosen, or read by a chosen target),
 * or an earlier run left it in the output folder (`--only client` beside a
 * full output). Otherwise a checks module would import a file that is not
 * there, and the client would not compile.
 */
function validatorsAvailable(ctx: TargetContext): boolean {
  return ctx.produces('validators') || existsSync(resolve(ctx.root, ctx.outDir, 'validators.ts'));
}

export const target: Target = {
  ...about,
  generate(ctx): OutputFile[] {
    return [
      ...[...renderClient(ctx, validatorsAvailable(ctx))].map(([path, contents]): OutputFile => ({ path: `${ctx.outDir}/${path}`, contents, ownership: 'generated' })),
      ...runtimeModules('client').map((module): OutputFile => ({
        path: `${ctx.outDir}/client/runtime/${module.slice('client/'.length)}`,
        contents: runtimeFile(module, ctx.model, ctx.command),
        ownership: 'generated',
      })),
    ];
  },
};
