import type { ApiModel } from '../../model/types.js';
import { banner } from '../banner.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { commentText, indent, literal } from './code.js';
import { EmitContext } from './context.js';
import { decoderBody } from './decoders.js';
import { buildCheckBody, errorBodyCheck, headerTable, responseFunction, responseTable } from './functions.js';
import { runtimeFile } from '../runtime.js';
import { loadTemplates } from './templates.js';

/** Runtime helpers the generated module may call; only those it uses are imported. */
const RUNTIME_HELPERS = [
  'DEEP_CONFLICT',
  'INVALID_JSON',
  'JSON_MISS',
  'JsonCursor',
  'SCALAR_BOOLEAN',
  'SCALAR_INTEGER',
  'SCALAR_NULL',
  'SCALAR_NUMBER',
  'SCALAR_STRING',
  'assignedFields',
  'checkResponse',
  'checkResponseHeaders',
  'codePointLength',
  'decodeFields',
  'deepListFields',
  'deepShape',
  'deepTree',
  'deepValue',
  'deepObjectFields',
  'explodedFields',
  'fileList',
  'headerList',
  'invalid',
  'invalidFrom',
  'invalidJson',
  'invalidStyle',
  'jsonField',
  'jsonKind',
  'jsonMember',
  'jsonNext',
  'jsonOpen',
  'keySegment',
  'labelList',
  'labelValue',
  'matchMediaType',
  'matrixAssignments',
  'matrixList',
  'matrixValue',
  'missing',
  'otherFields',
  'ownField',
  'pairFields',
  'parseInteger',
  'parseJson',
  'parseNumber',
  'parseScalar',
  'prefixFailures',
  'readJsonInteger',
  'readJsonString',
  'readJsonValue',
  'repeated',
  'repeatedElements',
  'repeatedJson',
  'responseValidatorTables',
  'scalarList',
  'scratch',
  'selectResponse',
  'singleFile',
  'splitText',
  'unsupportedMediaType',
  'unsupportedParameters',
  'validateWith',
  'wrongBodyShape',
  'wrongFileCount',
];

/** Helpers the template itself calls. */
const ALWAYS = new Set(['validateWith', 'checkResponse', 'checkResponseHeaders', 'responseValidatorTables', 'selectResponse']);

const ERROR_FUNCTION = 'errorBody';

export interface ValidatorsSource {
  validators: string;
  runtime: string;
  /** Constructs degraded to unchecked code, each `file:line: message`. */
  warnings: string[];
}

/** Both generated modules as text, from the model alone. */
export function renderValidators(model: ApiModel, templatesDir: string, command: string): ValidatorsSource {
  const ctx = new EmitContext(model, buildCheckBody);
  const responseBodies: { name: string; comment: string; body: string[] }[] = [];

  const operations = model.operations.map((operation) => {
    const where = commentText(`${operation.method.toUpperCase()} ${model.basePath}${operation.path}`);
    const decoder = decoderBody(operation, ctx);
    const response = responseFunction(operation, ctx);
    if (response.body !== undefined) {
      responseBodies.push({ name: response.name, comment: `Success body of ${where}.`, body: response.body });
    }
    return {
      id: commentText(operation.id),
      camel: operation.names.camel,
      pascal: operation.names.pascal,
      method: operation.method.toUpperCase(),
      path: commentText(`${model.basePath}${operation.path}`),
      decoderBody: indent(decoder).join('\n'),
      responseFunction: response.name,
      responseTest: response.test,
    };
  });

  const errorBody = errorBodyCheck(ctx);
  // One function per named schema, whether or not an operation uses it.
  const schemaEntries = model.schemas.map((named) => ({ key: literal(named.name), fn: ctx.schemaFunction(named.name) }));
  // Every declared response by status and media type; emitted last, so that adding them renames no earlier function.
  const tableBodies: { name: string; comment: string; body: string[] }[] = [];
  const tables = model.operations.map((operation, index) => ({
    camel: operation.names.camel,
    responses: responseTable(operation, ctx, operations[index]!.responseFunction, tableBodies).map((entry) => ({
      key: literal(entry.key),
      media: entry.media.length === 0 ? '{}' : `{ ${entry.media.map((m) => `${literal(m.type)}: ${m.fn ?? 'null'}`).join(', ')} }`,
    })),
  }));

  // Declared response headers, for operations that declare any; their functions come after the body tables'.
  const headerTables = model.operations.flatMap((operation) => {
    const entries = headerTable(operation, ctx, tableBodies);
    return entries === undefined ? [] : [{ camel: operation.names.camel, responses: entries.map((e) => ({ key: literal(e.key), headers: e.headers })) }];
  });

  const functions = [
    ...ctx.functions(),
    ...responseBodies,
    { name: ERROR_FUNCTION, comment: 'Any error body, by its code.', body: errorBody },
    ...tableBodies,
  ].map((fn) => ({ name: fn.name, comment: fn.comment, body: indent(fn.body).join('\n') }));

  const code = [ctx.constants.join('\n'), ...functions.map((f) => f.body), ...operations.map((o) => o.decoderBody), ...headerTables.flatMap((t) => t.responses.map((r) => r.headers))].join('\n');
  const view = {
    banner: banner(model, command, 'line'),
    typeImports: model.operations.map((o) => `${o.names.pascal}Params`),
    runtimeTypes: 'Decoded, Failure, HeadersLike, HeaderTable, Issue, RawRequest, ResponseCheck, ResponseTable, ValidateOptions',
    runtimeImports: RUNTIME_HELPERS.filter((name) => ALWAYS.has(name) || new RegExp(`\\b${name}\\b`).test(code)),
    constants: ctx.constants,
    functions,
    operations,
    operationNames: model.operations.map((o) => literal(o.names.camel)),
    schemaNames: schemaEntries.map((e) => e.key),
    schemaEntries,
    errorFunction: ERROR_FUNCTION,
    tables,
    headerTables,
  };
  const templates = loadTemplates(templatesDir);
  return { validators: templates.validators(view), runtime: runtimeFile('validators-runtime.ts', model, command), warnings: ctx.warnings };
}

export const target: Target = {
  name: 'validators',
  description: 'request decoders and response validators (generated straight-line checks)',
  generate(ctx: TargetContext): OutputFile[] {
    const source = renderValidators(ctx.model, ctx.templatesDir, ctx.command);
    for (const warning of source.warnings) ctx.report(warning);
    return [
      { path: `${ctx.outDir}/validators.ts`, contents: source.validators, ownership: 'generated' },
      { path: `${ctx.outDir}/validators-runtime.ts`, contents: source.runtime, ownership: 'generated' },
    ];
  },
};
