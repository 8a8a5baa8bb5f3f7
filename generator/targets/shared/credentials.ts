/** The document's security schemes as the client and its package describe them. */
import { propertyKey } from '../../model/names.js';
import type { ApiModel, SecuritySchemeModel } from '../../model/types.js';

/** The document's schemes, sorted by name. */
export function schemeModels(model: ApiModel): SecuritySchemeModel[] {
  return [...model.securitySchemes].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The Basic scheme the `email`/`apiKey` options stand for: the first Basic
 * scheme of a document following our success-envelope convention, whose
 * users log in with an email address and API key (the docs' examples use the
 * same rule).
 */
export function basicShorthand(model: ApiModel, schemes: SecuritySchemeModel[]): SecuritySchemeModel | undefined {
  return model.conventions.successEnvelope ? schemes.find((scheme) => scheme.kind === 'basic') : undefined;
}

/** The credentials part of a `createClient` options example (for READMEs): the shorthand, else the first scheme's; '' without schemes. */
export function clientOptionsExample(model: ApiModel): string {
  const schemes = schemeModels(model);
  if (basicShorthand(model, schemes) !== undefined) return "email: 'me@example.com', apiKey: process.env.API_KEY";
  const first = schemes.find((scheme) => scheme.kind !== 'mutualTLS');
  if (first === undefined) return '';
  const value = first.kind === 'basic' ? "{ username: 'me', password: process.env.API_PASSWORD }" : 'process.env.API_TOKEN';
  return `auth: { ${propertyKey(first.name)}: ${value} }`;
}
