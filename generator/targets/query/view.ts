import type { ApiModel, HttpMethod, Operation } from '../../model/types.js';
import { clientScope, paramsOptional, Scope } from '../shared/client-functions.js';
import { tsString } from '../shared/literal.js';
import { escapeDocText } from '../shared/tsdoc.js';

/** What `templates/query/query.ts.hbs` receives: every value is ready to print. */
export interface QueryView {
  banner: string;
  /** Names imported from `./types.js`, sorted. */
  typeImports: string[];
  /** Names imported from `./query-runtime.js`, comma-separated. */
  runtimeImports: string;
  /** The union of the client's error types, and its name. */
  errorType: string;
  operations: QueryOperationView[];
}

export interface QueryOperationView {
  /** The client's operation function (`getMessage`) and its module (`get-message`). */
  functionName: string;
  file: string;
  /** `{@link getMessage}`, for doc comments. */
  functionLink: string;
  /** `GET /messages/{message_id}`, escaped for a doc comment. */
  route: string;
  /** The operation's id as a literal: the first element of its keys. */
  idLiteral: string;
  paramsType: string;
  paramsOptional: boolean;
  /** Reads: `getMessageQueryKey`, its type `GetMessageQueryKey`, `getMessageQueryOptions`. Writes: `getMessageMutationOptions`. */
  read: boolean;
  keyFunction: string;
  keyType: string;
  optionsFunction: string;
}

/**
 * Reads are the operations whose method HTTP defines as safe (RFC 9110
 * section 9.2.1): GET, HEAD, OPTIONS, TRACE. OpenAPI 3.0 and 3.1 have no
 * keyword that marks another method's operation safe, so every other
 * operation is a write (docs/decisions/0030-query-target.md).
 */
const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['get', 'head', 'options', 'trace']);

export function isRead(operation: Operation): boolean {
  return SAFE_METHODS.has(operation.method);
}

const RUNTIME_VALUES = ['operationMutationOptions', 'operationQueryKey', 'operationQueryOptions'];
const RUNTIME_TYPES = ['OperationMutationOptions', 'OperationQueryKey', 'OperationQueryOptions'];
const CLIENT_TYPES = ['ApiError', 'Connection', 'RequestOptions', 'ResponseValidationError', 'TransportError', 'UnsupportedFeatureError'];

export function buildQueryView(model: ApiModel, banner: string): QueryView {
  const { functionNames } = clientScope(model);
  const paramsTypes = model.operations.map((operation) => `${operation.names.pascal}Params`);
  // The file's own names never take one it imports; types and values are apart, as in TypeScript.
  const values = new Scope([...RUNTIME_VALUES, ...functionNames.values()]);
  const typeNames = new Scope([...RUNTIME_TYPES, ...CLIENT_TYPES, ...paramsTypes]);
  const errorType = typeNames.take('ClientError');
  const operations = model.operations.map((operation): QueryOperationView => {
    const read = isRead(operation);
    const functionName = functionNames.get(operation)!;
    return {
      functionName,
      file: operation.names.file,
      functionLink: `{@link ${functionName}}`,
      route: escapeDocText(`${operation.method.toUpperCase()} ${operation.path}`),
      idLiteral: tsString(operation.id),
      paramsType: `${operation.names.pascal}Params`,
      paramsOptional: paramsOptional(operation),
      read,
      // From the method name, not the function's: `class` gives `classQueryKey`, where the function is `class_`.
      keyFunction: read ? values.take(`${operation.names.camel}QueryKey`) : '',
      keyType: read ? typeNames.take(`${operation.names.pascal}QueryKey`) : '',
      optionsFunction: values.take(`${operation.names.camel}${read ? 'Query' : 'Mutation'}Options`),
    };
  });
  const reads = operations.some((operation) => operation.read);
  const writes = operations.some((operation) => !operation.read);
  return {
    banner,
    typeImports: [...new Set(paramsTypes)].sort(),
    runtimeImports: [
      ...(writes ? ['operationMutationOptions', 'type OperationMutationOptions'] : []),
      ...(reads ? ['operationQueryKey', 'operationQueryOptions', 'type OperationQueryKey', 'type OperationQueryOptions'] : []),
    ].join(', '),
    errorType,
    operations,
  };
}
