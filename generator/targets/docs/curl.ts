import type { ApiModel, Operation, SecuritySchemeModel } from '../../model/types.js';
import {
  EXAMPLE_EMAIL,
  EXAMPLE_ORIGIN,
  exampleArguments,
  exampleBody,
  exampleFileName,
  simpleText,
  stylePairs,
  wireValue,
} from './examples.js';
import { exampleSchemes } from './security.js';

/** POSIX shell single quoting: safe for any text, including quotes and newlines. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Text inside shell double quotes, so a `$VARIABLE` after it still expands. */
function doubleQuoted(text: string): string {
  return text.replace(/[\\"$`]/g, '\\$&');
}

/** The shell variable each kind of credential is read from. */
export function credentialVariable(scheme: SecuritySchemeModel): string {
  switch (scheme.kind) {
    case 'basic':
    case 'apiKey':
      return 'API_KEY';
    case 'mutualTLS':
      return '';
    default:
      return 'TOKEN';
  }
}

/**
 * A curl command for the operation's request example: path parameters in the
 * URL (in their style), query parameters in the URL (with `-G
 * --data-urlencode` for a GET without a body), headers with `-H`, cookies
 * with `--cookie`, form fields with `--data-urlencode` (JSON text for
 * json-encoded ones), multipart with `-F`, a whole body with its media type
 * (`--data-raw` for JSON and text, `--data-binary @file` otherwise), and the
 * credentials of the operation's first security alternative from shell
 * variables (`$API_KEY`, `$TOKEN`).
 */
export function curlExample(operation: Operation, basePath: string, model?: ApiModel): string {
  const args = exampleArguments(operation);
  const body = exampleBody(operation);
  const useG = operation.method === 'get' && !body.present;
  let path = operation.path;
  const query = new URLSearchParams();
  const urlencoded: string[] = [];
  const headers: string[] = [];
  const cookies: string[] = [];
  const fields: string[] = [];

  for (const [parameter, value] of args) {
    switch (parameter.location) {
      case 'path':
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(simpleText(parameter, value)).replace(/%2C/g, ',').replace(/%3B/g, ';').replace(/%3D/g, '='));
        break;
      case 'query':
        for (const [name, text] of stylePairs(parameter, value)) {
          if (useG) urlencoded.push(`--data-urlencode ${shellQuote(`${name}=${text}`)}`);
          else query.append(name, text);
        }
        break;
      case 'header':
        headers.push(`-H ${shellQuote(`${parameter.name}: ${simpleText(parameter, value)}`)}`);
        break;
      case 'cookie':
        for (const [name, text] of stylePairs(parameter, value)) cookies.push(`${name}=${encodeURIComponent(text)}`);
        break;
      default: {
        if (parameter.encoding === 'file') {
          fields.push(`-F ${shellQuote(`${parameter.name}=@${exampleFileName(value)}`)}`);
          break;
        }
        // Lists and objects as their Encoding Object spreads them; a JSON list sent one part per element.
        const pairs: [string, string][] =
          parameter.encoding === 'json' && parameter.explode === true && Array.isArray(value) ? value.map((item) => [parameter.name, JSON.stringify(item)]) : stylePairs(parameter, value);
        for (const [name, text] of pairs) fields.push(operation.body === 'multipart' ? `--form-string ${shellQuote(`${name}=${text}`)}` : `--data-urlencode ${shellQuote(`${name}=${text}`)}`);
      }
    }
  }

  // Credentials: scheme by scheme of the first alternative.
  const auth: string[] = [];
  let queryKey = '';
  const schemes = model === undefined ? (operation.auth ? [basicFallback] : []) : exampleSchemes(operation, model);
  for (const scheme of schemes) {
    const variable = credentialVariable(scheme);
    switch (scheme.kind) {
      case 'basic':
        auth.push(`-u ${EXAMPLE_EMAIL}:$API_KEY`);
        break;
      case 'apiKey': {
        const name = scheme.parameterName ?? scheme.name;
        if (scheme.in === 'query') queryKey += `"${query.toString() === '' && queryKey === '' ? '?' : '&'}${doubleQuoted(encodeURIComponent(name))}=$${variable}"`;
        else if (scheme.in === 'cookie') cookies.push(`"${doubleQuoted(`${name}=`)}$${variable}"`);
        else auth.push(`-H "${doubleQuoted(`${name}: `)}$${variable}"`);
        break;
      }
      case 'http':
        auth.push(`-H "Authorization: ${doubleQuoted(scheme.scheme ?? 'Bearer')} $${variable}"`);
        break;
      case 'mutualTLS':
        auth.push('--cert client.pem --key client-key.pem');
        break;
      default:
        auth.push(`-H "Authorization: Bearer $${variable}"`);
    }
  }

  const lines: string[] = [];
  const search = query.toString() === '' ? '' : `?${query.toString()}`;
  const url = `${EXAMPLE_ORIGIN}${basePath}${path}${search}`;
  const method = useG ? '-G' : `-X ${operation.method.toUpperCase()}`;
  lines.push(`curl -sS ${method} ${shellQuote(url)}${queryKey}`);
  lines.push(...auth, ...headers);
  if (cookies.length > 0) lines.push(`--cookie ${cookies.map((cookie) => (cookie.startsWith('"') ? cookie : shellQuote(cookie))).join(`'; '`)}`);
  lines.push(...urlencoded, ...fields);
  if (body.present) lines.push(...bodyArguments(operation, body.value));
  return lines.join(' \\\n  ');
}

/** The credential a hand-built model without security schemes gets: our Basic scheme. */
const basicFallback: SecuritySchemeModel = { name: 'basicAuth', names: { camel: 'basicAuth', pascal: 'BasicAuth', file: 'basic-auth' }, description: '', kind: 'basic', source: { file: '' } };

/** A whole body in the first media type the operation declares. */
function bodyArguments(operation: Operation, value: unknown): string[] {
  const content = operation.requestBody?.contents[0];
  if (content === undefined) return [];
  const type = `-H ${shellQuote(`Content-Type: ${content.mediaType}`)}`;
  switch (content.kind) {
    case 'json':
      return [type, `--data-raw ${shellQuote(JSON.stringify(value))}`];
    case 'text':
      return [type, `--data-raw ${shellQuote(typeof value === 'string' ? value : JSON.stringify(value))}`];
    case 'form':
      return [type, `--data-raw ${shellQuote(typeof value === 'object' && value !== null ? new URLSearchParams(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString() : String(value))}`];
    default:
      return [type, `--data-binary ${shellQuote(`@${exampleFileName(value)}`)}`];
  }
}
