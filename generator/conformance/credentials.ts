/**
 * Credentials of a run, one per security scheme (`--auth <scheme>=<value>`,
 * or `TEAMCHAT_AUTH_<SCHEME>` in the environment), applied to a request as
 * the scheme says. The curl reproduction names the environment variable
 * instead of the secret, so reports never hold one.
 */
import { ConfigError } from '../config.js';
import type { Operation, SecuritySchemeModel } from '../model/types.js';

export interface Credentials {
  /** Scheme name to its value (`email:api-key` for Basic, the token otherwise). */
  values: Map<string, string>;
}

/** The environment variable holding a scheme's credential (`basicAuth` -> `TEAMCHAT_AUTH_BASICAUTH`). */
export function credentialVariable(scheme: string): string {
  return `TEAMCHAT_AUTH_${scheme.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`;
}

export function readCredentials(schemes: SecuritySchemeModel[], flags: readonly string[], env: NodeJS.ProcessEnv): Credentials {
  const values = new Map<string, string>();
  for (const scheme of schemes) {
    const fromEnv = env[credentialVariable(scheme.name)];
    if (fromEnv !== undefined && fromEnv !== '') values.set(scheme.name, fromEnv);
  }
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const name = equals === -1 ? '' : flag.slice(0, equals);
    const scheme = schemes.find((candidate) => candidate.name === name);
    if (scheme === undefined) {
      throw new ConfigError(`--auth ${JSON.stringify(flag)}: name one of the document's security schemes (${schemes.map((s) => s.name).join(', ') || 'none'}) as <scheme>=<value>`);
    }
    if (scheme.kind === 'mutualTLS') throw new ConfigError(`--auth ${name}: mutual TLS is set up in TLS, not sent with requests`);
    const value = flag.slice(equals + 1);
    if (scheme.kind === 'basic' && !value.includes(':')) throw new ConfigError(`--auth ${name}: HTTP Basic takes <username>:<password>`);
    values.set(name, value);
  }
  return { values };
}

/** The alternative of the operation's security that the run can satisfy; undefined when none. */
export function usableAlternative(operation: Operation, credentials: Credentials): string[] | undefined {
  return operation.security.find((alternative) => alternative.every((scheme) => credentials.values.has(scheme)));
}

/** What a scheme adds to a request: a header, a query pair or a cookie; `value` is the credential or, for curl, a shell variable reference. */
export interface Placement {
  kind: 'header' | 'query' | 'cookie';
  name: string;
  value: string;
}

export function placement(scheme: SecuritySchemeModel, value: string, forShell = false): Placement | undefined {
  switch (scheme.kind) {
    case 'basic':
      return { kind: 'header', name: 'Authorization', value: `Basic ${forShell ? `$(printf %s "${value}" | base64 -w0)` : Buffer.from(value).toString('base64')}` };
    case 'bearer':
    case 'oauth2':
    case 'openIdConnect':
      return { kind: 'header', name: 'Authorization', value: `Bearer ${value}` };
    case 'http':
      return { kind: 'header', name: 'Authorization', value: `${scheme.scheme ?? ''} ${value}` };
    case 'apiKey':
      return { kind: scheme.in ?? 'header', name: scheme.parameterName ?? scheme.name, value };
    case 'mutualTLS':
      return undefined;
  }
}
