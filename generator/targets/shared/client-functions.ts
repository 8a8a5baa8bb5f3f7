/**
 * The client's operation functions as other code sees them: their names and
 * whether `params` may be left out, decided once; the client target exports
 * them and the query target imports them, so neither target imports the
 * other.
 */
import { bindingName } from '../../model/names.js';
import type { ApiModel, Operation } from '../../model/types.js';

/** The runtime values `client.ts` may import, by module, in the order they are printed. */
export const CLIENT_RUNTIME_VALUES: Readonly<Record<string, readonly string[]>> = {
  bodies: ['binaryBody', 'formBody', 'formFields', 'jsonBody', 'multipartBody', 'multipartFields', 'textBody', 'wholeBody'],
  connection: ['bindClient', 'call', 'openConnection'],
  serialize: ['cookieParam', 'headerParam', 'pathParam', 'queryParam', 'styledPathParam', 'styledQueryParam'],
  credentials: ['apiKeyCookie', 'apiKeyHeader', 'apiKeyQuery', 'basicCredential', 'bearerCredential', 'httpCredential'],
  levels: ['detectLevel', 'featureLevels'],
  retry: ['retrying'],
};

/** Names `client.ts` defines or imports itself; an operation function that would take one gets a `_` suffix. */
const CLIENT_OWN_NAMES = [
  'connect', 'createClient', 'detectFeatureLevel', 'featureLevels', 'featureLevelOf', 'retrying', 'isApiError',
  'ApiError', 'TransportError', 'UnsupportedFeatureError', 'ResponseValidationError',
  ...Object.values(CLIENT_RUNTIME_VALUES).flat(),
];

/** Top-level names of one generated file: each taken once, a clash suffixed `_` until free. */
export class Scope {
  private readonly taken: Set<string>;
  constructor(reserved: readonly string[]) {
    this.taken = new Set(reserved);
  }
  take(base: string): string {
    let name = bindingName(base);
    while (this.taken.has(name)) name += '_';
    this.taken.add(name);
    return name;
  }
}

/**
 * The scope of `client.ts` with every operation function's name taken, in
 * the model's order: the function is named like the method
 * (`getMessage`), unless `client.ts` needs that name itself.
 */
export function clientScope(model: ApiModel): { scope: Scope; functionNames: Map<Operation, string> } {
  const scope = new Scope(CLIENT_OWN_NAMES);
  const functionNames = new Map(model.operations.map((operation) => [operation, scope.take(operation.names.camel)]));
  return { scope, functionNames };
}

/** True when no parameter (and no body) of the operation is required, so its function may be called without `params`. */
export function paramsOptional(operation: Operation): boolean {
  const body = operation.requestBody;
  return operation.parameters.every((parameter) => !parameter.required) && !(body?.mode === 'whole' && body.required);
}
