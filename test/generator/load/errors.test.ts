import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../../generator/cli/pipeline.js';
import { SpecError } from '../../../generator/load/errors.js';
import { targets } from '../../../generator/targets/index.js';
import { target as types } from '../../../generator/targets/types/index.js';
import { config, snapshot, tempProject } from '../../support/generator.js';

const cases: [string, { file: string; line: number; message: string }][] = [
  ['yaml-syntax', { file: 'spec/paths/things.yaml', line: 5, message: 'YAML syntax error' }],
  ['dangling-ref', { file: 'spec/paths/things.yaml', line: 9, message: 'cannot resolve $ref `../components/schemas/Missing.yaml`' }],
  ['dangling-internal-ref', { file: 'spec/openapi.yaml', line: 9, message: 'cannot resolve $ref `#/components/parameters/Nope`' }],
  ['duplicate-operationid', { file: 'spec/openapi.yaml', line: 18, message: 'duplicate operationId `make-thing` (first used at spec/openapi.yaml:7)' }],
  ['header-param', { file: 'spec/openapi.yaml', line: 10, message: 'parameter `X-Token` is `in: header`, whose style is `simple` (found `form`)' }],
  ['feature-level-text', { file: 'spec/openapi.yaml', line: 8, message: '`x-feature-level` must be a non-negative integer' }],
  ['ref-through-ref', { file: 'spec/openapi.yaml', line: 21, message: "cannot resolve $ref `#/paths/~1things/get/responses/200/content/application~1json/schema/properties/id` (it runs into `#/paths/~1things/get/responses/200/content/application~1json/schema`, a $ref, which a JSON pointer does not follow)" }],
  ['body-media-not-object', { file: 'spec/openapi.yaml', line: 10, message: 'media type `application/json` must be a media type object' }],
];

describe('malformed specs stop the run with file and line, writing nothing', () => {
  let dispose = (): void => {};
  afterEach(() => dispose());

  it.each(cases)('%s', async (name, want) => {
    const project = tempProject(`malformed/${name}`);
    dispose = project.dispose;
    const out = join(project.root, 'generated');
    mkdirSync(out);
    writeFileSync(join(out, 'types.ts'), '// an earlier run\n');
    const before = snapshot(out);

    const error = await generate(config(project.root), [types]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SpecError);
    const specError = error as SpecError;
    expect({ file: specError.file, line: specError.line }).toEqual({ file: want.file, line: want.line });
    expect(specError.message).toContain(want.message);
    expect(specError.message.startsWith(`${want.file}:${want.line}: `)).toBe(true);
    expect(snapshot(out)).toEqual(before);
  });
});

describe('valid documents the model degrades, with file and line', () => {
  it('an empty operationId names the operation from its method and path, with a note', async () => {
    const project = tempProject('empty-operation-id');
    try {
      const result = await generate(config(project.root, {}, ['types', 'validators']), targets.filter((t) => t.name === 'types' || t.name === 'validators'));
      expect(result.reports).toContain('spec/openapi.yaml:6: GET /reports: the operationId is empty: the operation is named from its method and path');
      expect(readFileSync(join(project.root, 'generated/validators.ts'), 'utf8')).toContain('export function decodeGetReports(');
    } finally {
      project.dispose();
    }
  });
  it('discriminator mapping entries naming files that cannot be read are left out, with one note per mapping', async () => {
    const project = tempProject('mapping-unreadable');
    try {
      const result = await generate(config(project.root, {}, ['types', 'validators']), targets.filter((t) => t.name === 'types' || t.name === 'validators'));
      expect(result.reports).toContain('spec/openapi.yaml:16: discriminator mapping `cat`, `dog` names `models/pets.yml`, `#/nowhere/dog`, which cannot be read: those entries are ignored');
      const validators = readFileSync(join(project.root, 'generated/validators.ts'), 'utf8');
      expect(validators).toContain('export function decodeAddPet(');
    } finally {
      project.dispose();
    }
  });
  it('an `x-changes` that is text, in a document that names no feature levels, is not ours: ignored with one note', async () => {
    const project = tempProject('foreign-changes');
    try {
      const result = await generate(config(project.root, {}, ['types', 'validators']), targets.filter((t) => t.name === 'types' || t.name === 'validators'));
      expect(result.reports).toContain('spec/openapi.yaml:5: `x-changes` is not a list of {level, change} and the document names no feature levels: ignored (and 1 more)');
    } finally {
      project.dispose();
    }
  });

  it('a request body that lists no media type (an empty `content`) leaves the operation without a body', async () => {
    const project = tempProject('body-without-media-type');
    try {
      const result = await generate(config(project.root, {}, ['types', 'validators']), targets.filter((t) => t.name === 'types' || t.name === 'validators'));
      expect(result.reports).toContain('spec/openapi.yaml:9: the request body lists no media type: the operation is generated without a body');
      const validators = readFileSync(join(project.root, 'generated/validators.ts'), 'utf8');
      expect(validators).toContain('export function decodeMakeThing(');
      expect(validators).not.toContain('unsupportedMediaType');
    } finally {
      project.dispose();
    }
  });
});
