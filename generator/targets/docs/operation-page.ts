import type { ApiModel, Operation, OperationError, Parameter, Schema } from '../../model/types.js';
import { operationChanges, groupByLevel } from './changes.js';
import { clientExample } from './client-example.js';
import { curlExample } from './curl.js';
import { flattenFields, resolve, type SchemaLookup } from './fields.js';
import { codeBlock, escapeCell, inlineCode, oneLine } from './markdown.js';
import { CHANGELOG_FILE, INDEX_FILE } from './links.js';
import { levelCell, notesCell } from './notes.js';
import { definitionOf, referencedNames } from './named-types.js';
import { isNullable, typeExpression } from './type-expression.js';

/** What `templates/docs/operation.md.hbs` receives: every cell already escaped. */
export interface OperationPageView {
  banner: string;
  summary: string;
  id: string;
  method: string;
  fullPath: string;
  description: string;
  auth: string;
  tags: string;
  featureLevel: string;
  deprecated: boolean;
  unspecified: string[];
  transport: string;
  parameters: ParameterRow[];
  types: NamedTypeView[];
  fields: FieldRow[];
  successExample: string;
  errors: ErrorRow[];
  errorExamples: ExampleView[];
  curlIntro: string;
  curl: string;
  client: string;
  changes: ChangeGroupView[];
  changelogLink: string;
  indexLink: string;
}

export interface ParameterRow {
  name: string;
  type: string;
  required: string;
  default: string;
  encoding: string;
  location: string;
  featureLevel: string;
  notes: string;
}

/** A named type used by the parameters: its definition and, for objects, its fields. */
export interface NamedTypeView {
  name: string;
  definition: string;
  description: string;
  fields: FieldRow[];
}

export interface FieldRow {
  name: string;
  type: string;
  presence: string;
  featureLevel: string;
  notes: string;
}

export interface ErrorRow {
  status: string;
  code: string;
  extraFields: string;
  description: string;
}

export interface ExampleView {
  title: string;
  block: string;
}

export interface ChangeGroupView {
  level: number;
  entries: { place: string; change: string }[];
}

export interface PageContext {
  model: ApiModel;
  lookup: SchemaLookup;
  banner: string;
}

const ENCODING_LABEL = { plain: 'plain', json: 'JSON', file: 'file' } as const;

const TRANSPORT: Record<Operation['body'], (method: string) => string> = {
  none: (method) =>
    method === 'GET'
      ? 'Parameters other than path parameters travel in the query string.'
      : 'The operation takes no form fields.',
  form: () =>
    'Parameters other than path parameters travel as an `application/x-www-form-urlencoded` body ' +
    '(`multipart/form-data` and the query string are accepted too).',
  multipart: () => 'The request is a `multipart/form-data` body.',
  json: () => 'The request body is JSON.',
  text: () => 'The request body is text.',
  binary: () => 'The request body is binary data.',
};

export function operationPageView(operation: Operation, page: PageContext): OperationPageView {
  const method = operation.method.toUpperCase();
  return {
    banner: page.banner,
    summary: operation.summary,
    id: operation.id,
    method,
    fullPath: `${page.model.basePath}${operation.path}`,
    description: operation.description.trim(),
    auth: operation.auth
      ? 'HTTP Basic: the email address as username and the API key as password.'
      : 'None.',
    tags: operation.tags.join(', '),
    featureLevel: levelCell(operation),
    deprecated: operation.deprecated,
    unspecified: operation.unspecified.map(oneLine),
    transport: TRANSPORT[operation.body](method),
    parameters: operation.parameters.map((parameter) => parameterRow(parameter, page.lookup)),
    types: referencedNames(
      operation.parameters.map((parameter) => parameter.schema),
      page.lookup,
    ).map((name) => namedTypeView(name, page.lookup)),
    fields: fieldRows(operation.success.schema, page.lookup),
    successExample: jsonBlock(operation.success.examples[0]?.value),
    errors: operation.errors.flatMap((error) => errorRows(error, page.model)),
    errorExamples: operation.errors.flatMap((error) =>
      error.examples.map((example) => ({
        title: `${error.status}: ${example.summary || example.name}`,
        block: jsonBlock(example.value),
      })),
    ),
    curlIntro: operation.auth ? 'With curl (`API_KEY` holds the API key):' : 'With curl:',
    curl: codeBlock('sh', curlExample(operation, page.model.basePath)),
    client: codeBlock('ts', clientExample(operation)),
    changes: groupByLevel(operationChanges(operation, page.lookup)).map((group) => ({
      level: group.level,
      entries: group.entries.map((entry) => ({ place: capitalise(entry.place), change: oneLine(entry.change) })),
    })),
    changelogLink: `../${CHANGELOG_FILE}`,
    indexLink: `../${INDEX_FILE}`,
  };
}

function parameterRow(parameter: Parameter, lookup: SchemaLookup): ParameterRow {
  return {
    name: escapeCell(inlineCode(parameter.name)),
    type: escapeCell(inlineCode(typeExpression(parameter.schema))),
    required: parameter.required ? 'yes' : 'no',
    default: parameter.default === undefined ? '' : escapeCell(inlineCode(JSON.stringify(parameter.default))),
    encoding: ENCODING_LABEL[parameter.encoding],
    location: parameter.location,
    featureLevel: levelCell(parameter),
    notes: notesCell(parameter.description, parameter.schema, parameter, lookup),
  };
}

function namedTypeView(name: string, lookup: SchemaLookup): NamedTypeView {
  const schema = lookup.get(name) ?? { kind: 'any' };
  return {
    name,
    definition: inlineCode(typeExpression(definitionOf(schema))),
    description: (schema.description ?? '').trim(),
    fields: schema.kind === 'object' ? fieldRows(schema, lookup) : [],
  };
}

function fieldRows(schema: Schema, lookup: SchemaLookup): FieldRow[] {
  return flattenFields(schema, lookup).map((field) => fieldRow(field.path, field.schema, field.required, lookup));
}

function fieldRow(path: string, schema: Schema, required: boolean, lookup: SchemaLookup): FieldRow {
  const presence = required ? 'always present' : 'may be absent';
  const description = schema.description ?? resolve(schema, lookup).description ?? '';
  return {
    name: escapeCell(inlineCode(path)),
    type: escapeCell(inlineCode(typeExpression(schema))),
    presence: isNullable(schema) ? `${presence}, nullable` : presence,
    featureLevel: levelCell(schema),
    notes: notesCell(description, schema, schema, lookup),
  };
}

function errorRows(error: OperationError, model: ApiModel): ErrorRow[] {
  const status = error.statusText ?? String(error.status);
  if (error.codes.length === 0) {
    return [{ status, code: '', extraFields: '', description: escapeCell(error.description) }];
  }
  return error.codes.map((code) => {
    const known = model.errors.find((candidate) => candidate.code === code);
    const extraFields = (known?.extraFields ?? []).map(
      (field) => `${inlineCode(field.name)}: ${inlineCode(typeExpression(field.schema))}`,
    );
    return {
      status,
      code: inlineCode(code),
      extraFields: escapeCell(extraFields.join(', ')),
      description: escapeCell(known?.description || error.description),
    };
  });
}

function jsonBlock(value: unknown): string {
  return value === undefined ? '' : codeBlock('json', JSON.stringify(value, null, 2));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
