import type { ApiModel, Operation, SecuritySchemeModel } from '../../model/types.js';
import { inlineCode, oneLine } from './markdown.js';

/** How a page names one security scheme: its kind, where it travels, and its key in the document. */
export function schemeText(scheme: SecuritySchemeModel | undefined, name: string): string {
  const key = inlineCode(name);
  switch (scheme?.kind) {
    case undefined:
      return key;
    case 'basic':
      return `HTTP Basic (${key})`;
    case 'bearer':
      return `Bearer token${scheme.bearerFormat ? ` (${scheme.bearerFormat})` : ''} in \`Authorization\` (${key})`;
    case 'apiKey':
      return `API key in the ${scheme.in ?? 'header'} ${inlineCode(scheme.parameterName ?? name)} (${key})`;
    case 'oauth2':
      return `OAuth 2 access token as a Bearer token (${key})`;
    case 'openIdConnect':
      return `OpenID Connect token as a Bearer token (${key})`;
    case 'http':
      return `HTTP ${scheme.scheme ?? ''} authentication (${key})`;
    case 'mutualTLS':
      return `Mutual TLS client certificate (${key})`;
  }
}

/**
 * The operation's security requirement in words: alternatives joined by
 * "or", the schemes of one alternative by "and"; an empty alternative makes
 * credentials optional. With a single scheme, its description follows.
 */
export function securityText(operation: Operation, model: ApiModel): string {
  if (operation.security.length === 0) return 'None.';
  const byName = schemesByName(operation, model);
  const alternatives = operation.security.filter((alternative) => alternative.length > 0);
  if (alternatives.length === 0) return 'None.';
  const text = alternatives.map((alternative) => alternative.map((name) => schemeText(byName.get(name), name)).join(' and ')).join(', or ');
  const optional = alternatives.length < operation.security.length ? ' Optional: the operation also answers without credentials.' : '';
  const names = [...new Set(alternatives.flat())];
  const description = names.length === 1 ? oneLine(byName.get(names[0]!)?.description ?? '') : '';
  return `${text}${description === '' ? '.' : `: ${description}`}${optional}`;
}

/** The schemes of the first alternative that needs credentials, the one the examples use. */
export function exampleSchemes(operation: Operation, model: ApiModel): SecuritySchemeModel[] {
  // Credentials only where the operation needs them (an optional requirement is left out).
  if (!operation.auth) return [];
  const first = operation.security.find((alternative) => alternative.length > 0) ?? [];
  const byName = schemesByName(operation, model);
  return first.flatMap((name) => byName.get(name) ?? []);
}

/**
 * The document's schemes by name. A model without any (built before
 * security schemes were modelled) stands for our own document: HTTP Basic.
 */
function schemesByName(operation: Operation, model: ApiModel): Map<string, SecuritySchemeModel> {
  const byName = new Map(model.securitySchemes.map((scheme) => [scheme.name, scheme]));
  if (model.securitySchemes.length === 0) {
    for (const name of operation.security.flat()) {
      byName.set(name, { name, names: { camel: name, pascal: name, file: name }, description: '', kind: 'basic', source: { file: '' } });
    }
  }
  return byName;
}
