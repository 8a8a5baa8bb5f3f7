import type { Operation } from '../../model/types.js';
import { EXAMPLE_EMAIL, EXAMPLE_ORIGIN, exampleArguments, exampleFileName } from './examples.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A TypeScript program calling the operation through the generated client. */
export function clientExample(operation: Operation): string {
  const args = exampleArguments(operation);
  const usesFile = args.some(([parameter]) => parameter.encoding === 'file');
  const properties = args.map(([parameter, value]) => {
    const literal =
      parameter.encoding === 'file'
        ? `{ filename: ${jsString(exampleFileName(value))}, data: await readFile(${jsString(exampleFileName(value))}) }`
        : jsLiteral(value, '  ');
    return `  ${propertyKey(parameter.name)}: ${literal},`;
  });
  const call =
    properties.length === 0
      ? `await client.${operation.names.camel}();`
      : `await client.${operation.names.camel}({\n${properties.join('\n')}\n});`;
  return [
    ...(usesFile ? [`import { readFile } from 'node:fs/promises';`] : []),
    `import { createClient } from 'teamchat-api/client';`,
    '',
    'const client = createClient({',
    `  baseUrl: ${jsString(EXAMPLE_ORIGIN)},`,
    `  email: ${jsString(EXAMPLE_EMAIL)},`,
    `  apiKey: process.env.API_KEY ?? '',`,
    '});',
    '',
    `const result = ${call}`,
    'console.log(result);',
  ].join('\n');
}

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : jsString(name);
}

function jsString(text: string): string {
  const body = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'");
  return `'${body}'`;
}

/** A JSON value as a TypeScript literal; objects and non-scalar arrays span lines. */
export function jsLiteral(value: unknown, indent: string): string {
  if (typeof value === 'string') return jsString(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== 'object')) {
      return `[${value.map((item) => jsLiteral(item, inner)).join(', ')}]`;
    }
    return `[\n${value.map((item) => `${inner}${jsLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, item]) => `${inner}${propertyKey(key)}: ${jsLiteral(item, inner)},`);
  return `{\n${lines.join('\n')}\n${indent}}`;
}
