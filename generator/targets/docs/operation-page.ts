import type { ApiModel, Operation, OperationError, Parameter, ParameterStyle, ResponseModel } from '../../model/types.js';
import { operationChanges, groupByLevel } from './changes.js';
import { clientExample } from './client-example.js';
import { credentialVariable, curlExample } from './curl.js';
import type { SchemaLookup } from './fields.js';
import { codeBlock, escapeCell, inlineCode, oneLine } from './markdown.js';
import { CHANGELOG_FILE, INDEX_FILE, TYPES_FILE } from './links.js';
import { levelCell, notesCell } from './notes.js';
import { definedElsewhereNames, definitionOf, referencedNames } from './named-types.js';
import { contentBlock, fieldRows, fieldTable, headerTable, unionBlock, type BlockContext, type FieldRow } from './schema-blocks.js';
import { exampleSchemes, securityText } from './security.js';
import { typeExpression } from './type-expression.js';

export type { FieldRow } from './schema-blocks.js';

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
  servers: string;
  featureLevel: string;
  /** Whether the document names feature levels (level columns, changes, changelog link). */
  featureLevels: boolean;
  deprecated: boolean;
  unspecified: string[];
  transport: string;
  /** Whether the parameter table has a Style column (some parameter is not in its location's default style). */
  showStyle: boolean;
  parameters: ParameterRow[];
  /** Whole-mode request body: one block per media type. */
  requestBody: { intro: string; contents: string[] } | undefined;
  types: NamedTypeView[];
  /**
   * When the page uses more named types than it defines (`PAGE_TYPE_LIMIT`):
   * how many, and the link to the shared types page that defines them.
   */
  typesPage: { count: number; link: string } | undefined;
  responsesTitle: string;
  responses: ResponseView[];
  /** Body-coded errors (our convention): a row per code. */
  codedErrors: boolean;
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
  style: string;
  featureLevel: string;
  notes: string;
}

/** A named type the page uses: its definition and, for objects and unions, its fields and variants. */
export interface NamedTypeView {
  name: string;
  definition: string;
  description: string;
  fields: FieldRow[];
  /** The fields as a markdown table (empty without fields). */
  fieldTable: string;
  /** Variants and discriminator of a union (empty otherwise). */
  variants: string;
}

export interface ResponseView {
  /** `200`, `2XX`, `default`: the heading when the page lists several responses. */
  title: string;
  description: string;
  /** One block per media type; empty for a response without a body. */
  contents: string[];
  headers: string;
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
  /** Named type views already built, shared by the pages of one run. */
  typeViews?: Map<string, NamedTypeView>;
  /** Collects the names of types the pages leave to the shared types page. */
  sharedTypes?: Set<string>;
}

/**
 * The most named types a page defines itself. In a document of densely
 * cross-referenced schemas (Stripe's) each operation reaches hundreds of
 * them; such a page defines none and links to the shared types page instead.
 */
export const PAGE_TYPE_LIMIT = 40;

const ENCODING_LABEL = { plain: 'plain', json: 'JSON', file: 'file' } as const;

/** The style a location uses when the document writes none. */
const DEFAULT_STYLE: Record<Parameter['location'], { style?: ParameterStyle; explode?: boolean }> = {
  path: { style: 'simple', explode: false },
  query: { style: 'form', explode: true },
  header: { style: 'simple', explode: false },
  cookie: { style: 'form', explode: true },
  body: {},
};

function transport(operation: Operation, method: string): string {
  const body = operation.requestBody;
  if (body === undefined || body.mode === 'whole') {
    if (body !== undefined) return 'The request body is described below.';
    return method === 'GET'
      ? 'Parameters other than path parameters travel in the query string.'
      : operation.parameters.some((parameter) => parameter.location === 'body')
        ? 'The operation takes no form fields.'
        : 'The operation takes no request body.';
  }
  const types = body.contents.map((content) => inlineCode(content.mediaType));
  if (operation.body === 'multipart') return `The request is a ${types.join(' or ')} body.`;
  // The bindings take a fields-mode form body as multipart or in the query string as well.
  const [first, ...others] = types;
  const accepted = [...others, ...(types.includes('`multipart/form-data`') ? [] : ['`multipart/form-data`']), 'the query string'];
  const also = ` (${accepted.join(accepted.length === 2 ? ' and ' : ', ')} are accepted too)`;
  return `Parameters other than path parameters travel as an ${first} body${also}.`;
}

function statusTitle(response: { status: number; statusText?: string }): string {
  return response.statusText ?? String(response.status);
}

export function operationPageView(operation: Operation, page: PageContext): OperationPageView {
  const { model, lookup } = page;
  const method = operation.method.toUpperCase();
  const featureLevels = model.conventions.featureLevels;
  const ctx: BlockContext = { lookup, featureLevels };
  const successes = operation.successes.length > 0 ? operation.successes : [operation.success];
  const bodyCodes = model.conventions.bodyCodedErrors;
  const wholeBody = operation.requestBody?.mode === 'whole' ? operation.requestBody : undefined;

  const bodySchemas = [
    ...(wholeBody?.contents ?? []).map((content) => content.schema),
    ...successes.flatMap((response) => responseSchemas(response)),
    ...(bodyCodes ? [] : operation.errors.flatMap((error) => error.contents.map((content) => content.schema))),
  ];
  const names = new Set([...referencedNames(operation.parameters.map((parameter) => parameter.schema), lookup), ...definedElsewhereNames(bodySchemas, lookup)]);
  if (!bodyCodes) {
    // Error bodies are shown by type: define the named ones.
    for (const name of referencedNames(operation.errors.flatMap((error) => error.contents.map((content) => content.schema)), lookup)) names.add(name);
  }

  const typeViews = page.typeViews ?? new Map<string, NamedTypeView>();
  const shared = names.size > PAGE_TYPE_LIMIT;
  if (shared) for (const name of names) page.sharedTypes?.add(name);

  const schemes = exampleSchemes(operation, model);
  const variables = [...new Set(schemes.map(credentialVariable).filter((variable) => variable !== ''))];
  return {
    banner: page.banner,
    summary: operation.summary || `${operation.method.toUpperCase()} ${operation.path}`,
    id: operation.id,
    method,
    fullPath: `${operation.basePath}${operation.path}`,
    description: operation.description.trim(),
    auth: escapeCell(securityText(operation, model)),
    tags: operation.tags.join(', '),
    servers: (operation.servers ?? []).map((url) => inlineCode(url)).join(', '),
    featureLevel: featureLevels ? levelCell(operation) : '',
    featureLevels,
    deprecated: operation.deprecated,
    unspecified: operation.unspecified.map(oneLine),
    transport: transport(operation, method),
    showStyle: operation.parameters.some((parameter) => parameter.style !== undefined && styleLabel(parameter) !== ''),
    parameters: operation.parameters.map((parameter) => parameterRow(parameter, lookup)),
    requestBody:
      wholeBody === undefined
        ? undefined
        : {
            intro: [
              wholeBody.required ? 'Required.' : 'Optional.',
              oneLine(wholeBody.description),
              wholeBody.contents.length > 1 ? 'The client sends one of these media types; the server accepts each.' : '',
            ]
              .filter((part) => part !== '')
              .join(' '),
            contents: wholeBody.contents.map((content) => contentBlock(content, ctx)),
          },
    types: shared ? [] : [...names].map((name) => cachedTypeView(name, ctx, typeViews)),
    typesPage: shared ? { count: names.size, link: `../${TYPES_FILE}` } : undefined,
    responsesTitle: successes.length > 1 ? 'Responses' : 'Response',
    responses: successes.map((response) => responseView(response, ctx)),
    codedErrors: bodyCodes,
    errors: operation.errors.flatMap((error) => (bodyCodes ? errorRows(error, model) : plainErrorRows(error))),
    errorExamples: operation.errors.flatMap((error) =>
      error.examples.map((example) => ({
        title: `${statusTitle(error)}: ${example.summary || example.name}`,
        block: jsonBlock(example.value),
      })),
    ),
    curlIntro:
      variables.length === 0
        ? 'With curl:'
        : `With curl (${variables.map((variable) => `\`${variable}\` holds the ${variable === 'TOKEN' ? 'access token' : 'API key'}`).join(', ')}):`,
    curl: codeBlock('sh', curlExample(operation, operation.basePath, model)),
    client: codeBlock('ts', clientExample(operation, model)),
    changes: featureLevels
      ? groupByLevel(operationChanges(operation, lookup)).map((group) => ({
          level: group.level,
          entries: group.entries.map((entry) => ({ place: capitalise(entry.place), change: oneLine(entry.change) })),
        }))
      : [],
    changelogLink: `../${CHANGELOG_FILE}`,
    indexLink: `../${INDEX_FILE}`,
  };
}

function responseSchemas(response: ResponseModel): import('../../model/types.js').Schema[] {
  return response.contents.length > 0 ? response.contents.map((content) => content.schema) : [response.schema];
}

function responseView(response: ResponseModel, ctx: BlockContext): ResponseView {
  // Hand-built models may leave `contents` empty while giving a JSON schema.
  const contents =
    response.contents.length > 0
      ? response.contents
      : response.schema.kind === 'any'
        ? []
        : [{ mediaType: 'application/json', kind: 'json' as const, schema: response.schema, examples: response.examples }];
  return {
    title: statusTitle(response),
    description: oneLine(response.description),
    contents: contents.length === 0 ? ['No body.'] : contents.map((content) => contentBlock(content, ctx)),
    headers: headerTable(response.headers, ctx),
  };
}

/** The style column: empty when the parameter uses its location's default. */
function styleLabel(parameter: Parameter): string {
  if (parameter.style === undefined) return '';
  const fallback = DEFAULT_STYLE[parameter.location];
  const explode = parameter.explode ?? fallback.explode;
  if (parameter.style === fallback.style && explode === fallback.explode && parameter.allowReserved !== true) return '';
  const parts = [parameter.style, explode ? 'exploded' : 'not exploded'];
  if (parameter.allowReserved === true) parts.push('reserved characters allowed');
  return parts.join(', ');
}

function parameterRow(parameter: Parameter, lookup: SchemaLookup): ParameterRow {
  return {
    name: escapeCell(inlineCode(parameter.name)),
    type: escapeCell(inlineCode(typeExpression(parameter.schema))),
    required: parameter.required ? 'yes' : 'no',
    default: parameter.default === undefined ? '' : escapeCell(inlineCode(JSON.stringify(parameter.default))),
    encoding: ENCODING_LABEL[parameter.encoding],
    location: parameter.location,
    style: styleLabel(parameter),
    featureLevel: levelCell(parameter),
    notes: notesCell(parameter.description, parameter.schema, parameter, lookup),
  };
}

export function cachedTypeView(name: string, ctx: BlockContext, cache: Map<string, NamedTypeView>): NamedTypeView {
  let view = cache.get(name);
  if (view === undefined) {
    view = namedTypeView(name, ctx);
    cache.set(name, view);
  }
  return view;
}

function namedTypeView(name: string, ctx: BlockContext): NamedTypeView {
  const schema = ctx.lookup.get(name) ?? { kind: 'any' };
  const fields = schema.kind === 'object' || schema.kind === 'union' ? fieldRows(schema, ctx) : [];
  const notes = notesCell('', definitionOf(schema), {}, ctx.lookup).replace(/<br>/g, ' ');
  return {
    name,
    definition: `${inlineCode(typeExpression(definitionOf(schema)))}.${notes === '' ? '' : ` ${notes}`}`,
    description: (schema.description ?? '').trim(),
    fields,
    fieldTable: fields.length > 0 ? fieldTable(fields, ctx) : '',
    variants: schema.kind === 'union' ? unionBlock(schema) : '',
  };
}

function errorRows(error: OperationError, model: ApiModel): ErrorRow[] {
  const status = statusTitle(error);
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

/** Errors typed by status: the body of each media type by its type (named types are defined on the page). */
function plainErrorRows(error: OperationError): ErrorRow[] {
  const body =
    error.contents.length === 0
      ? 'no body'
      : error.contents.map((content) => `${inlineCode(content.mediaType)}: ${inlineCode(content.kind === 'binary' ? 'binary' : typeExpression(content.schema))}`).join(', ');
  const headers = error.headers.map((header) => inlineCode(header.name)).join(', ');
  return [
    {
      status: statusTitle(error),
      code: escapeCell(body),
      extraFields: escapeCell(headers),
      description: escapeCell(error.description),
    },
  ];
}

function jsonBlock(value: unknown): string {
  return value === undefined ? '' : codeBlock('json', JSON.stringify(value, null, 2));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
