/**
 * Credentials of every security scheme kind. Each kind is a writer the
 * generated scheme constant names, so a bundle keeps only the kinds of the
 * operations it calls.
 */
import { encodeText } from './serialize.js';
import type { Credential, SchemeSpec, TokenSource } from './types.js';

/** Where a request's credentials go before it is sent. */
export interface CredentialTarget {
  headers: Record<string, string>;
  /** Encoded `name=value` pairs of the query string. */
  query: string[];
  /** `name=value` pairs of the Cookie header. */
  cookies: string[];
}

/** Writes one scheme's credential into the request. */
export type CredentialWriter = (request: CredentialTarget, credential: Credential, scheme: SchemeSpec) => Promise<void>;

/** HTTP Basic: `Authorization: Basic base64(username:password)` (a token alone is the password). */
export const basicCredential: CredentialWriter = async (request, credential) => {
  const basic = typeof credential === 'object' ? credential : { username: '', password: (await tokenOf(credential)) ?? '' };
  request.headers['Authorization'] = basicAuthorization(basic.username, basic.password);
};

/** Bearer, OAuth2 and OpenID Connect: `Authorization: Bearer <token>`. */
export const bearerCredential: CredentialWriter = async (request, credential) => {
  const token = await textOf(credential);
  if (token !== undefined) request.headers['Authorization'] = `Bearer ${token}`;
};

/** Another HTTP scheme: `Authorization: <scheme> <credential>` (`Digest ...`). */
export const httpCredential: CredentialWriter = async (request, credential, scheme) => {
  const token = await textOf(credential);
  if (token !== undefined) request.headers['Authorization'] = `${scheme.scheme ?? 'Bearer'} ${token}`;
};

/** An API key in a header named by the scheme. */
export const apiKeyHeader: CredentialWriter = async (request, credential, scheme) => {
  const token = await textOf(credential);
  if (token !== undefined) request.headers[scheme.key ?? scheme.name] = token;
};

/** An API key in a query parameter named by the scheme. */
export const apiKeyQuery: CredentialWriter = async (request, credential, scheme) => {
  const token = await textOf(credential);
  if (token !== undefined) request.query.push(`${encodeText(scheme.key ?? scheme.name)}=${encodeText(token)}`);
};

/** An API key in a cookie named by the scheme. */
export const apiKeyCookie: CredentialWriter = async (request, credential, scheme) => {
  const token = await textOf(credential);
  if (token !== undefined) request.cookies.push(`${encodeText(scheme.key ?? scheme.name)}=${encodeText(token)}`);
};

/**
 * Adds the credentials of the first security alternative whose schemes all
 * have a credential configured (a `mutualTLS` scheme, without a writer,
 * counts as configured: it lives in the TLS set-up). When none has, nothing
 * is sent and the server decides (an empty alternative makes credentials
 * optional).
 */
export async function applySecurity(
  security: readonly (readonly SchemeSpec[])[] | undefined,
  credentials: { readonly [scheme: string]: Credential | undefined },
  request: CredentialTarget,
): Promise<void> {
  const chosen = security?.find((alternative) => alternative.length > 0 && alternative.every((scheme) => scheme.write === undefined || credentials[scheme.name] !== undefined));
  for (const scheme of chosen ?? []) {
    const credential = credentials[scheme.name];
    if (scheme.write !== undefined && credential !== undefined) await scheme.write(request, credential, scheme);
  }
}

/** A token, or Basic credentials as `username:password`, for schemes that send one text. */
async function textOf(credential: Credential): Promise<string | undefined> {
  return typeof credential === 'object' ? `${credential.username}:${credential.password}` : await tokenOf(credential);
}

async function tokenOf(source: TokenSource): Promise<string | undefined> {
  return typeof source === 'function' ? await source() : source;
}

/** `Basic base64(user:password)` over UTF-8 bytes; `btoa` exists in browsers and Node alike. */
function basicAuthorization(user: string, password: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(`${user}:${password}`)) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}
