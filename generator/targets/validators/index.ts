import type { ApiModel } from '../../model/types.js';
import { banner } from '../banner.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { runtimeFolderFiles } from '../runtime.js';
import { parameterList, print } from './builder.js';
import { commentText, literal } from './code.js';
import { constantName } from '../../model/names.js';
import { decoderBody } from './decoders.js';
import { emitContext, errorBodyCheck, headerTable, responseFunction, responseTable, type OwnFunction } from './functions.js';
import { predicateOf } from './checks/predicate.js';
import { loadTemplates } from './templates.js';
import { CHECK_PARAMS } from './context.js';
import { about } from './about.js';


export interface ValidatorsSource {
  validators: string;
  /** The runtime folder's modules by path relative to the output folder (`validators-runtime/index.ts`). */
  runtime: Map<string, string>;
  /** Constructs degraded to unchecked code, each `file:line: message`. */
  warnings: string[];
}

/** Both generated modules as text, from the model alone. */
export function renderValidators(model: ApiModel, templatesDir: string, command: string): ValidatorsSource {
  const ctx = emitContext(model);
  // Exported Standard Schema names: component schemas first (sorted), then each operation's request and response.
  const schemaExports = new Map([...model.schemas].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((s) => [s.name, ctx.names.unique(`${s.names.pascal}Schema`)]));
  const operationExports = model.operations.map((o) => ({ request: ctx.names.unique(`${o.names.pascal}RequestSchema`), response: ctx.names.unique(`${o.names.pascal}ResponseSchema`) }));
  const own: OwnFunction[] = [];

  const operations = model.operations.map((operation, index) => {
    const where = commentText(`${operation.method.toUpperCase()} ${model.basePath}${operation.path}`);
    const decoder = decoderBody(operation, ctx);
    const response = responseFunction(operation, ctx, own);
    const table = responseTable(operation, ctx, response.name, own).map((entry) => ({
      key: literal(entry.key),
      media: entry.media.length === 0 ? '{}' : `{ ${entry.media.map((m) => `${literal(m.type)}: ${m.fn ?? 'null'}`).join(', ')} }`,
    }));
    const headers = headerTable(operation, ctx, own)?.map((e) => ({ key: literal(e.key), headers: e.headers }));
    const constant = constantName(operation.names.pascal);
    return {
      id: commentText(operation.id),
      where,
      camel: operation.names.camel,
      pascal: operation.names.pascal,
      decoderBody: print(decoder, 'return;', 1).join('\n'),
      responseFunction: response.name,
      responseTest: response.test,
      responsesTable: ctx.names.unique(`${constant}_RESPONSES`),
      responses: table,
      headersTable: headers === undefined ? undefined : ctx.names.unique(`${constant}_RESPONSE_HEADERS`),
      headers,
      requestSchema: operationExports[index]!.request,
      responseSchema: operationExports[index]!.response,
    };
  });

  const errorBody = { name: ctx.names.unique('checkErrorBody'), comment: 'Any error body, by its code.', body: errorBodyCheck(ctx) };
  // One function per named schema, whether or not an operation uses it, with its predicate for its Standard Schema.
  const schemaEntries = model.schemas.map((named) => ({
    key: literal(named.name),
    fn: ctx.schemaFunction(named.name),
    test: predicateOf({ kind: 'ref', name: named.name }, ctx, named.names.pascal),
    exported: schemaExports.get(named.name)!,
    comment: commentText(named.name),
  }));

  const functions = [...ctx.functions(), ...own, errorBody].map((fn) => ({
    name: fn.name,
    comment: fn.comment,
    parameters: parameterList(CHECK_PARAMS, fn.body),
    body: print(fn.body, 'return;', 1).join('\n'),
  }));
  const view = {
    banner: banner(model, command, 'line'),
    typeImports: model.operations.flatMap((o) => [`${o.names.pascal}Params`, `${o.names.pascal}Response`]),
    hasSchemas: model.schemas.length > 0,
    constants: ctx.constants,
    functions,
    operations,
    operationNames: model.operations.map((o) => literal(o.names.camel)),
    schemaNames: schemaEntries.map((e) => e.key),
    schemaEntries,
    errorFunction: errorBody.name,
  };
  // What the template itself calls, as it calls it; every other import is what the emitted checks used.
  for (const name of ['validateWith', 'responseValidatorTables'] as const) ctx.use(name);
  for (const name of ['Decoded', 'Failure', 'HeadersLike', 'Issue', 'RawRequest', 'ResponseCheck', 'ValidateOptions'] as const) ctx.useType(name);
  if (operations.length > 0) {
    for (const name of ['checkResponse', 'checkSchema', 'decoderSchema'] as const) ctx.use(name);
    for (const name of ['ResponseTable', 'StandardSchemaV1'] as const) ctx.useType(name);
  }
  if (schemaEntries.length > 0) {
    ctx.use('checkSchema');
    ctx.useType('StandardSchemaV1');
  }
  if (operations.some((o) => o.headersTable !== undefined)) {
    ctx.use('checkResponseHeaders');
    ctx.useType('HeaderTable');
  }
  if (operations.some((o) => o.headersTable === undefined)) ctx.use('selectResponse');
  const templates = loadTemplates(templatesDir);
  return { validators: templates.validators({ ...view, runtimeImports: ctx.runtimeImports(), runtimeTypes: ctx.runtimeTypeImports().join(', ') }), runtime: runtimeFolderFiles('validators-runtime', model, command), warnings: ctx.warnings };
}

export const target: Target = {
  ...about,
  generate(ctx: TargetContext): OutputFile[] {
    const source = renderValidators(ctx.model, ctx.templatesDir, ctx.command);
    for (const warning of source.warnings) ctx.report(warning);
    return [
      { path: `${ctx.outDir}/validators.ts`, contents: source.validators, ownership: 'generated' },
      ...[...source.runtime].map(([path, contents]): OutputFile => ({ path: `${ctx.outDir}/${path}`, contents, ownership: 'generated' })),
    ];
  },
};
