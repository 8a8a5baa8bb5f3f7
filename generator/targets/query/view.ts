import type { ApiModel, HttpMethod, Operation } from '../../model/types.js';
import { clientScope, paramsOptional, Scope } from '../shared/client-functions.js';
import { tsString } from '../shared/literal.js';
import { escapeDocText } from '../shared/tsdoc.js';

/**
 * What `templates/query/query.ts.hbs` receives (and, with `banner` and
 * `errorType`, `templates/query/operation.ts.hbs` per operation): every
 * value is ready to print.
 */
export interface QueryView {
  banner: string;
  /** The name of the union of the client's error types. */
  errorType: string;
  operations: QueryOperationView[];
}

export interface QueryOperationView {
  /** What its module imports from `../query-runtime/index.js`, comma-separated. */
  runtimeImports: string;
  /** What `query.ts` re-exports from its module, comma-separated. */
  exports: string;
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
 * operation is a write (docs/decisions/0032-query-target.md).
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
  // One scope for types and values: `query.ts` re-exports both in one list, where a name may appear once.
  const scope = new Scope([...RUNTIME_VALUES, ...RUNTIME_TYPES, ...CLIENT_TYPES, ...functionNames.values(), ...paramsTypes]);
  const errorType = scope.take('ClientError');
  const operations = model.operations.map((operation): QueryOperationView => {
    const read = isRead(operation);
    const functionName = functionNames.get(operation)!;
    // From the method name, not the function's: `class` gives `classQueryKey`, where the function is `class_`.
    const keyFunction = read ? scope.take(`${operation.names.camel}QueryKey`) : '';
    const keyType = read ? scope.take(`${operation.names.pascal}QueryKey`) : '';
    const optionsFunction = scope.take(`${operation.names.camel}${read ? 'Query' : 'Mutation'}Options`);
    return {
      runtimeImports: read
        ? 'operationQueryKey, operationQueryOptions, type OperationQueryKey, type OperationQueryOptions'
        : 'operationMutationOptions, type OperationMutationOptions',
      exports: read ? `${keyFunction}, ${optionsFunction}, type ${keyType}` : optionsFunction,
      functionName,
      file: operation.names.file,
      functionLink: `{@link ${functionName}}`,
      route: escapeDocText(`${operation.method.toUpperCase()} ${operation.path}`),
      idLiteral: tsString(operation.id),
      paramsType: `${operation.names.pascal}Params`,
      paramsOptional: paramsOptional(operation),
      read,
      keyFunction,
      keyType,
      optionsFunction,
    };
  });
  return { banner, errorType, operations };
}
