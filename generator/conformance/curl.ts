/**
 * A request as a `curl` command that sends the same bytes: method, URL,
 * headers and body, credentials read from `TEAMCHAT_AUTH_<SCHEME>` (never
 * printed).
 */
import type { SecuritySchemeModel } from '../model/types.js';
import { credentialVariable, placement } from './credentials.js';
import type { WireRequest } from './wire.js';

export function curlCommand(request: WireRequest, schemes: readonly SecuritySchemeModel[]): string {
  const parts = ['curl', '-sS', '-i'];
  parts.push(request.method === 'HEAD' ? '-I' : `-X ${request.method}`);
  let url = shellQuote(request.url);
  /** Cookie pairs, written for one double-quoted shell word (credentials as variables). */
  const cookies: string[] = [];
  const headers = Object.entries(request.headers).filter(([name, value]) => {
    if (name.toLowerCase() !== 'cookie') return true;
    cookies.push(doubleQuoted(value));
    return false;
  });
  for (const scheme of schemes) {
    const variable = `\${${credentialVariable(scheme.name)}}`;
    if (scheme.kind === 'basic') {
      parts.push(`-u "${variable}"`);
      continue;
    }
    const placed = placement(scheme, variable, true);
    if (placed === undefined) continue;
    if (placed.kind === 'header') parts.push(`-H "${placed.name}: ${placed.value}"`);
    else if (placed.kind === 'cookie') cookies.push(`${encodeURIComponent(placed.name)}=${placed.value}`);
    else url += `"${request.url.includes('?') ? '&' : '?'}${encodeURIComponent(placed.name)}=${placed.value}"`;
  }
  parts.push(url);
  for (const [name, value] of headers) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (cookies.length > 0) parts.push(`-b "${cookies.join('; ')}"`);
  if (request.body !== undefined) parts.push(`--data-binary ${bodyArgument(request.body)}`);
  return parts.join(' ');
}

/** The body as a shell word: ANSI-C quoting, or a `printf` process substitution when it holds NUL bytes. */
function bodyArgument(body: Uint8Array): string {
  if (body.includes(0)) {
    let octal = '';
    for (const byte of body) octal += byte >= 0x20 && byte < 0x7f && byte !== 0x27 && byte !== 0x5c && byte !== 0x25 ? String.fromCharCode(byte) : `\\${byte.toString(8).padStart(3, '0')}`;
    return `@<(printf '${octal}')`;
  }
  let out = '';
  for (const byte of body) {
    if (byte === 0x27) out += "\\'";
    else if (byte === 0x5c) out += '\\\\';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `$'${out}'`;
}

/** Text inside a double-quoted shell word, taken literally. */
function doubleQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

/** A POSIX single-quoted word. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
