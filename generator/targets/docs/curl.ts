import type { Operation } from '../../model/types.js';
import { EXAMPLE_EMAIL, EXAMPLE_ORIGIN, exampleArguments, exampleFileName, wireValue } from './examples.js';

/** POSIX shell single quoting: safe for any text, including quotes and newlines. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command for the operation's request example: path parameters in the
 * URL, GET parameters with `-G --data-urlencode`, form fields with
 * `--data-urlencode` (JSON text for json-encoded parameters), multipart with
 * `-F`, and HTTP Basic credentials from `$API_KEY`.
 */
export function curlExample(operation: Operation, basePath: string): string {
  const args = exampleArguments(operation);
  let path = operation.path;
  const query = new URLSearchParams();
  const fields: string[] = [];

  for (const [parameter, value] of args) {
    const text = wireValue(parameter, value);
    if (parameter.location === 'path') {
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    } else if (parameter.location === 'query' && operation.method !== 'get') {
      query.append(parameter.name, text);
    } else if (parameter.encoding === 'file') {
      fields.push(`-F ${shellQuote(`${parameter.name}=@${exampleFileName(value)}`)}`);
    } else if (operation.body === 'multipart') {
      fields.push(`--form-string ${shellQuote(`${parameter.name}=${text}`)}`);
    } else {
      fields.push(`--data-urlencode ${shellQuote(`${parameter.name}=${text}`)}`);
    }
  }

  const search = query.toString() === '' ? '' : `?${query.toString()}`;
  const url = `${EXAMPLE_ORIGIN}${basePath}${path}${search}`;
  const method = operation.method === 'get' ? '-G' : `-X ${operation.method.toUpperCase()}`;
  const lines = [`curl -sS ${method} ${shellQuote(url)}`];
  if (operation.auth) lines.push(`-u ${EXAMPLE_EMAIL}:$API_KEY`);
  lines.push(...fields);
  return lines.join(' \\\n  ');
}
