import type { ApiModel, Operation, Parameter } from '../../model/types.js';
import { newerErrorFields, newerResponseFields, type LevelledPath } from './levels.js';
import { tsString } from './literal.js';
import { docComment, escapeDocText } from './tsdoc.js';

/** What the client templates receive: every value is ready to print. */
export interface ClientView {
  banner: string;
  title: string;
  version: string;
  basePath: string;
  basePathLiteral: string;
  /** Names imported from `./types.js`, sorted. */
  typeImports: string[];
  operations: OperationView[];
  /** Per error code, its extra fields newer than some feature level: `[codeLiteral, fields]`. */
  newerErrorFields: { codeLiteral: string; fields: string }[];
}

export interface OperationView {
  camel: string;
  camelLiteral: string;
  doc: string;
  paramsType: string;
  responseType: string;
  /** True when no parameter is required, so the argument may be left out. */
  paramsOptional: boolean;
  methodLiteral: string;
  pathLiteral: string;
  auth: boolean;
  bodyLiteral: string;
  featureLevel: number | null;
  params: ParamView[];
  /** `[['path', level], ...]` of the success-body fields noted at a level, or '' when none. */
  newerFields: string;
}

export interface ParamView {
  nameLiteral: string;
  inLiteral: string;
  encodingLiteral: string;
  featureLevel: number | null;
}

/** Types every client imports besides the per-operation ones. */
const SHARED_TYPES = ['ErrorBody'];

export function buildClientView(model: ApiModel, banner: string): ClientView {
  const operations = model.operations.map((operation) => operationView(model, operation));
  const typeImports = [
    ...SHARED_TYPES,
    ...operations.flatMap((operation) => [operation.paramsType, operation.responseType]),
  ].sort();
  return {
    banner,
    title: escapeDocText(model.title),
    version: escapeDocText(model.version),
    basePath: escapeDocText(model.basePath),
    basePathLiteral: tsString(model.basePath),
    typeImports,
    operations,
    newerErrorFields: Object.entries(newerErrorFields(model)).map(([code, fields]) => ({ codeLiteral: tsString(code), fields: levelledLiteral(fields) })),
  };
}

function operationView(model: ApiModel, operation: Operation): OperationView {
  const pascal = operation.names.pascal;
  return {
    camel: operation.names.camel,
    camelLiteral: tsString(operation.names.camel),
    doc: operationDoc(model, operation),
    paramsType: `${pascal}Params`,
    responseType: `${pascal}Response`,
    paramsOptional: operation.parameters.every((parameter) => !parameter.required),
    methodLiteral: tsString(operation.method.toUpperCase()),
    pathLiteral: tsString(operation.path),
    auth: operation.auth,
    bodyLiteral: tsString(operation.body),
    featureLevel: operation.featureLevel ?? null,
    params: operation.parameters.map(paramView),
    newerFields: levelledLiteral(newerResponseFields(model, operation)),
  };
}

function paramView(parameter: Parameter): ParamView {
  return {
    nameLiteral: tsString(parameter.name),
    inLiteral: tsString(parameter.location),
    encodingLiteral: tsString(parameter.encoding),
    featureLevel: parameter.featureLevel ?? null,
  };
}

function operationDoc(model: ApiModel, operation: Operation): string {
  const paragraphs = [
    escapeDocText(operation.summary),
    escapeDocText(operation.description),
    `\`${operation.method.toUpperCase()} ${escapeDocText(model.basePath + operation.path)}\`${operation.auth ? '' : ' (no authentication)'}`,
  ];
  const newer = operation.parameters.filter((parameter) => parameter.featureLevel !== undefined);
  if (newer.length > 0) {
    const lines = newer.map(
      (parameter) => `- \`${escapeDocText(parameter.name)}\`: feature level ${parameter.featureLevel}`,
    );
    paragraphs.push(['Parameters by the feature level that added them:', ...lines].join('\n'));
  }
  const tags: string[] = [];
  if (operation.featureLevel !== undefined) tags.push(`@featureLevel ${operation.featureLevel}`);
  if (operation.deprecated) tags.push('@deprecated');
  if (tags.length > 0) paragraphs.push(tags.join('\n'));
  return docComment(paragraphs, '  ');
}

/** `[['a.b', 12], ...]`, or '' for none. */
function levelledLiteral(fields: LevelledPath[]): string {
  return fields.length === 0 ? '' : `[${fields.map(([path, level]) => `[${tsString(path)}, ${level}]`).join(', ')}]`;
}
