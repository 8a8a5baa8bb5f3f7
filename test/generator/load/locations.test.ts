/**
 * Where messages point: `file:line` in a document written over many lines;
 * `file:line:column` in one written on a single line (minified JSON, as the
 * big public API descriptions are published), where line 1 says nothing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpecError } from '../../../generator/load/errors.js';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';

const root = mkdtempSync(join(tmpdir(), 'teamchat-locations-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ok = { '200': { description: 'OK.' } };
const body = { content: { 'application/json': { schema: { type: 'object' } } } };
// Two GET operations with a request body: one warning each (the model ignores GET bodies).
const withGetBodies = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: {
    '/a': { get: { operationId: 'get-a', requestBody: body, responses: ok } },
    '/b': { get: { operationId: 'get-b', requestBody: body, responses: ok } },
  },
};
const optionalPathParameter = {
  openapi: '3.0.3',
  info: { title: 'T', version: '1' },
  paths: { '/a/{q}': { get: { operationId: 'get-a', parameters: [{ name: 'q', in: 'path', schema: { type: 'string' } }], responses: ok } } },
};

async function warnings(name: string, text: string): Promise<string[]> {
  writeFileSync(join(root, name), text);
  return buildModel(await loadSpec(name, root)).warnings ?? [];
}

/** 1-based columns of each occurrence of `needle`. */
function columns(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) found.push(at + 1);
  return found;
}

describe('message locations', () => {
  it('a one-line document: line and column of each place, so two places on the line stay two messages', async () => {
    const text = JSON.stringify(withGetBodies);
    const [a, b] = columns(text, '"requestBody"');
    const found = (await warnings('min.json', `${text}\n`)).filter((w) => w.includes('GET request body'));
    expect(found.map((w) => w.slice(0, w.indexOf(': ')))).toEqual([`min.json:1:${a}`, `min.json:1:${b}`]);
  });

  it('a document over many lines: the line alone', async () => {
    const text = JSON.stringify(withGetBodies, null, 2);
    const lines = text.split('\n');
    const expected = lines.flatMap((line, index) => (line.includes('"requestBody"') ? [`pretty.json:${index + 1}`] : []));
    const found = (await warnings('pretty.json', text)).filter((w) => w.includes('GET request body'));
    expect(found.map((w) => w.slice(0, w.indexOf(': ')))).toEqual(expected);
  });

  it('a run-stopping error in a one-line document names line and column', async () => {
    const text = JSON.stringify(optionalPathParameter);
    writeFileSync(join(root, 'bad.json'), text);
    const error = await loadSpec('bad.json', root).then(buildModel).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SpecError);
    // The parameter object, where it opens.
    const [column] = columns(text, '{"name"');
    expect((error as SpecError).message).toBe(`bad.json:1:${column}: path parameter \`q\` must be \`required: true\``);
  });
});
