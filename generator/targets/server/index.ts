import { readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { banner } from '../banner.js';
import { runtimeFile, runtimeModules } from '../runtime.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { handlerType, mergeHandler, scaffoldProject, type OwnedParts } from './scaffold.js';
import { loadTemplates } from './templates.js';
import { errorFormatLiteral, findErrorFormat } from './error-format.js';
import { buildView, literal, type OperationView } from './view.js';
import { about } from './about.js';

export const target: Target = {
  ...about,
  generate(ctx: TargetContext): OutputFile[] {
    const view = buildView(ctx.model, errorFormatLiteral(findErrorFormat(ctx.model)));
    const templates = loadTemplates(ctx.templatesDir);
    const header = banner(ctx.model, ctx.command, 'line');
    const outputs: OutputFile[] = [
      {
        path: posix.join(ctx.outDir, 'server.ts'),
        contents: finish(templates.server({ banner: header, ...view })),
        ownership: 'generated',
      },
      ...runtimeModules('server-runtime').map(
        (module): OutputFile => ({ path: posix.join(ctx.outDir, module), contents: runtimeFile(module, ctx.model, ctx.command), ownership: 'generated' }),
      ),
      {
        path: posix.join(ctx.outDir, 'handlers.ts'),
        contents: finish(templates.handlers({ banner: header, handlersDir: ctx.options.server.handlersDir, operations: handlersIndexView(ctx, view.operations) })),
        ownership: 'generated',
      },
      {
        path: posix.join(ctx.outDir, 'mock-handlers.ts'),
        contents: finish(templates.mockHandlers({ banner: header, ...mockView(ctx, view.operations) })),
        ownership: 'generated',
      },
    ];
    const handlersDir = ctx.options.server.handlersDir;
    // Created on first need: handlers already in step never load ts-morph.
    let project: ReturnType<typeof scaffoldProject> | undefined;
    const lazyProject = () => (project ??= scaffoldProject());
    for (const operation of view.operations) {
      const path = posix.join(handlersDir, `${operation.file}.ts`);
      const owned = ownedParts(ctx, operation);
      const existing = ctx.readExisting(path);
      let contents: string;
      if (existing === undefined) {
        contents = finish(templates.handler(scaffoldView(ctx, operation, owned)));
      } else {
        const merged = mergeHandler(lazyProject, path, existing, owned);
        if (merged.problem !== undefined) ctx.report(merged.problem);
        contents = merged.contents;
      }
      outputs.push({ path, contents, ownership: 'scaffold' });
    }
    reportOrphans(ctx, view.operations);
    reportSharedRoutes(ctx, view.operations);
    return outputs;
  },
};

/** Module specifier from one project file to another (`.ts` files imported as `.js`). */
function moduleSpecifier(fromFile: string, toFile: string): string {
  const relative = posix.relative(posix.dirname(fromFile), toFile).replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

function ownedParts(ctx: TargetContext, operation: OperationView): OwnedParts {
  const handlerFile = posix.join(ctx.options.server.handlersDir, `${operation.file}.ts`);
  return {
    camel: operation.camel,
    serverModule: moduleSpecifier(handlerFile, posix.join(ctx.outDir, 'server.ts')),
    jsDoc: handlerJsDoc(ctx, operation),
    typeAnnotation: handlerType(operation.camel),
  };
}

function handlerJsDoc(ctx: TargetContext, operation: OperationView): string {
  const lines = [operation.doc, '', 'Parameters:'];
  if (operation.parameterDocs.length === 0) lines.push('none.');
  else lines.push(...operation.parameterDocs.map((doc) => `- ${doc}`));
  if (operation.deprecated) lines.push('', '@deprecated');
  lines.push(
    '',
    `This comment, the type annotation and the \`Handlers\` import follow the spec through \`${ctx.command}\`;`,
    'the rest of the file is hand-written and left alone.',
  );
  return ['/**', ...lines.map((line) => (line === '' ? ' *' : ` * ${line}`)), ' */'].join('\n');
}

function notImplemented(operation: OperationView): string {
  return literal(`${operation.operationId} has no success example in the spec, and no implementation yet`);
}

/**
 * How a handler without an implementation fails: the document's own
 * INTERNAL_ERROR when it declares one, else the bindings' default envelope.
 */
function failureStyle(ctx: TargetContext): { name: string; expression: (operation: OperationView) => string } {
  return ctx.model.errors.some((error) => error.code === 'INTERNAL_ERROR')
    ? { name: 'ApiError', expression: (operation) => `new ApiError('INTERNAL_ERROR', ${notImplemented(operation)})` }
    : { name: 'notImplemented', expression: (operation) => `notImplemented(${notImplemented(operation)})` };
}

function scaffoldView(ctx: TargetContext, operation: OperationView, owned: OwnedParts) {
  const example = operation.example('  ');
  const failure = failureStyle(ctx);
  const importLine =
    example === undefined
      ? `import { ${failure.name}, type Handlers } from '${owned.serverModule}';`
      : `import type { Handlers } from '${owned.serverModule}';`;
  return {
    command: ctx.command,
    importLine,
    jsDoc: owned.jsDoc,
    camel: operation.camel,
    typeAnnotation: owned.typeAnnotation,
    example: example ?? false,
    notImplemented: notImplemented(operation),
    failure: failure.expression(operation),
  };
}

/** Names the index declares itself; an operation with one of them is imported under an alias. */
const INDEX_NAMES = new Set(['handlers', 'Handlers']);

function handlersIndexView(ctx: TargetContext, operations: OperationView[]) {
  const indexFile = posix.join(ctx.outDir, 'handlers.ts');
  return operations.map((operation) => ({
    camel: operation.camel,
    alias: INDEX_NAMES.has(operation.camel) ? `${operation.camel}Handler` : false,
    importPath: moduleSpecifier(indexFile, posix.join(ctx.options.server.handlersDir, `${operation.file}.ts`)),
  }));
}

function mockView(ctx: TargetContext, operations: OperationView[]) {
  const failure = failureStyle(ctx);
  const entries = operations.map((operation) => {
    const answer = operation.mockAnswer('  ');
    return {
      camel: operation.camel,
      example: answer ?? false,
      // The same body for every request: one frozen value (the bindings send its bytes, made once).
      // mockAnswer writes a body as `(value)`; the call's own parentheses replace them.
      constant: answer !== undefined && answer.startsWith('(') && answer.endsWith(')') ? answer.slice(1, -1) : false,
      parameters: answer?.startsWith('ctx.') === true ? '_params, ctx' : '',
      notImplemented: notImplemented(operation),
      failure: failure.expression(operation),
    };
  });
  return {
    operations: entries,
    needsApiError: entries.some((entry) => entry.example === false),
    needsConstant: entries.some((entry) => entry.constant !== false),
    failureImport: failure.name,
  };
}

/** Handler files whose operation left the spec: reported, never deleted. */
function reportOrphans(ctx: TargetContext, operations: OperationView[]): void {
  const expected = new Set(operations.map((operation) => `${operation.file}.ts`));
  let present: string[];
  try {
    present = readdirSync(join(ctx.root, ctx.options.server.handlersDir));
  } catch {
    return;
  }
  for (const name of present.sort()) {
    if (name.endsWith('.ts') && !expected.has(name)) {
      ctx.report(`${ctx.options.server.handlersDir}/${name}: its operation is no longer in the spec; the file is kept, delete it by hand`);
    }
  }
}

/** Operations whose method and path only differ by a fragment (`/pets#v2`): the bindings serve the first. */
function reportSharedRoutes(ctx: TargetContext, operations: OperationView[]): void {
  const seen = new Map<string, string>();
  for (const operation of operations) {
    const key = `${operation.method} ${operation.fastifyPath.replace(/:[^/]+/g, ':')}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, operation.operationId);
    else ctx.report(`server target: ${operation.operationId} has the method and path of ${first} (${operation.method} ${operation.specPath}); the bindings serve ${first} there`);
  }
}

/** LF endings, no trailing blank lines, one final newline. */
function finish(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\n+$/, '') + '\n';
}
