/**
 * Media type keys written with capitals (test/fixtures/operations/bodies-media-case):
 * the model matches them lower-cased, while openapi-typescript keys `content`
 * as written, so the types and server targets must index it as written. The
 * fixture also has an operationId with a `#`, which openapi-typescript keys
 * with a `/`.
 * Golden types and validators are checked by bodies.test.ts; here
 * every target's TypeScript output type-checks, and the aliases mean the schema.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { typeCheck as typeCheckFiles } from '../../../support/type-check.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { repoRoot } from '../../../support/process.js';
import { config } from '../../../support/generator.js';

// Under the repository, so the generated server finds fastify in node_modules.
mkdirSync(join(repoRoot, 'test/artifacts'), { recursive: true });
const root = mkdtempSync(join(repoRoot, 'test/artifacts', 'media-case-'));
const out = join(root, 'generated');

beforeAll(async () => {
  mkdirSync(join(root, 'spec'));
  cpSync(join(repoRoot, 'test/fixtures/operations/bodies-media-case/openapi.yaml'), join(root, 'spec/openapi.yaml'));
  await generate(config(root, { handlers: 'handlers' }, ['types', 'validators', 'client', 'server']));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

function typeCheck(files: string[]): string[] {
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  return typeCheckFiles(files.map((file) => join(out, file)), {}, out);
}

describe('media type keys with capitals', () => {
  it('types, client, validators and server type-check, and the aliases are the schema', () => {
    const usage = `type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
import type { CreateVersionedNoteParams, CreateVersionedNoteResponse, PutNotesIdShareResponse } from './types.js';
export const shared: Equal<PutNotesIdShareResponse['title'], string> = true;
export const response: Equal<CreateVersionedNoteResponse['title'], string> = true;
export const params: CreateVersionedNoteParams = { body: { title: 'x' } };
// @ts-expect-error the title is a string
export const wrong: CreateVersionedNoteParams = { body: { title: 1 } };
`;
    writeFileSync(join(out, 'usage.ts'), usage);
    expect(typeCheck(['types.ts', 'client.ts', 'validators.ts', 'server.ts', 'usage.ts'])).toEqual([]);
  });
});
