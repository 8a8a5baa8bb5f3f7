import type { ApiModel, Operation } from '../../model/types.js';
import { EXAMPLE_EMAIL, EXAMPLE_ORIGIN, exampleArguments, exampleBody, exampleFileName, parameterKey } from './examples.js';
import { exampleSchemes } from './security.js';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A TypeScript program calling the operation through the generated client:
 * the example's parameters by their keys, a whole body under its parameter
 * name, and the credentials of the operation's first security alternative
 * (our own document's `email`/`apiKey` shorthand, else `auth` by scheme).
 */
export function clientExample(operation: Operation, model?: ApiModel): string {
  const args = exampleArguments(operation);
  const usesFile = args.some(([parameter]) => parameter.encoding === 'file');
  const properties = args.map(([parameter, value]) => {
    const literal =
      parameter.encoding === 'file'
        ? `{ filename: ${jsString(exampleFileName(value))}, data: await readFile(${jsString(exampleFileName(value))}) }`
        : jsLiteral(value, '  ');
    return `  ${propertyKey(parameterKey(parameter))}: ${literal},`;
  });
  const body = exampleBody(operation);
  const content = operation.requestBody?.contents[0];
  const binaryBody = body.present && content?.kind === 'binary';
  if (body.present) {
    const key = operation.requestBody?.parameterName ?? 'body';
    const literal = binaryBody ? `await readFile(${jsString(exampleFileName(body.value))})` : jsLiteral(body.value, '  ');
    properties.push(`  ${propertyKey(key)}: ${literal},`);
  }
  const call =
    properties.length === 0
      ? `await client.${operation.names.camel}();`
      : `await client.${operation.names.camel}({\n${properties.join('\n')}\n});`;
  return [
    ...(usesFile || binaryBody ? [`import { readFile } from 'node:fs/promises';`] : []),
    `import { createClient } from 'teamchat-api/client';`,
    '',
    'const client = createClient({',
    `  baseUrl: ${jsString(EXAMPLE_ORIGIN)},`,
    ...credentialLines(operation, model),
    '});',
    '',
    `const result = ${call}`,
    'console.log(result);',
  ].join('\n');
}

function credentialLines(operation: Operation, model: ApiModel | undefined): string[] {
  // Our own document (and hand-built models without schemes): the Basic shorthand.
  if (model === undefined || (model.conventions.successEnvelope && exampleSchemes(operation, model).every((s) => s.kind === 'basic'))) {
    return [`  email: ${jsString(EXAMPLE_EMAIL)},`, `  apiKey: process.env.API_KEY ?? '',`];
  }
  const schemes = exampleSchemes(operation, model).filter((scheme) => scheme.kind !== 'mutualTLS');
  if (schemes.length === 0) return [];
  const entries = schemes.map((scheme) => {
    const value =
      scheme.kind === 'basic'
        ? `{ username: process.env.USERNAME ?? '', password: process.env.PASSWORD ?? '' }`
        : `process.env.${scheme.kind === 'apiKey' ? 'API_KEY' : 'TOKEN'} ?? ''`;
    return `    ${propertyKey(scheme.name)}: ${value},`;
  });
  return ['  auth: {', ...entries, '  },'];
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
