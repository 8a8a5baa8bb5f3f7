/**
 * A large OpenAPI 3.0 document shaped like big public APIs (made by
 * test/support/synthetic-spec.ts, never committed): every target generates
 * it, within the test's time limit, and its validators are right on the
 * parts that make it large.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../generator/cli/pipeline.js';
import { loadSpec } from '../../../generator/load/index.js';
import { buildModel } from '../../../generator/model/build.js';
import type { ApiModel } from '../../../generator/model/types.js';
import { targetNames } from '../../../generator/targets/index.js';
import { loadGenerated, removeWritten, type GeneratedValidators } from '../../fixtures/validators/load.js';
import { LARGE, syntheticSpec } from '../../support/synthetic-spec.js';
import { config } from '../../support/generator.js';

const root = mkdtempSync(join(tmpdir(), 'teamchat-large-'));
let result: GenerateResult;
let model: ApiModel;
let validators: GeneratedValidators;

beforeAll(async () => {
  mkdirSync(join(root, 'spec'));
  writeFileSync(join(root, 'spec', 'openapi.json'), JSON.stringify(syntheticSpec(LARGE)));
  // Every target, named (so the query target runs too); the hook's time limit is the bound.
  result = await generate(config(root, { spec: 'spec/openapi.json', out: 'out', only: targetNames.join(',') }, [...targetNames]));
  model = buildModel(await loadSpec('spec/openapi.json', root));
  validators = await loadGenerated(model);
}, 600_000);

afterAll(() => {
  removeWritten();
  rmSync(root, { recursive: true, force: true });
});

describe('a large synthetic document', () => {
  it('has the shape of a big public API', () => {
    expect(model.operations.length).toBeGreaterThan(1000);
    const event = model.schemas.find((s) => s.name === 'Event')!.schema;
    expect(event.kind === 'union' && event.variants.length).toBeGreaterThan(100);
    const registration = model.schemas.find((s) => s.name === 'Registration')!.schema;
    expect(registration.kind === 'object' && registration.properties.length).toBeGreaterThanOrEqual(400);
  });

  it('generates every target with no warnings', () => {
    expect(result.targets.map((t) => t.name)).toEqual([...targetNames]);
    for (const target of result.targets) expect(target.files.length, target.name).toBeGreaterThan(0);
    expect(result.reports).toEqual([]);
    const types = readFileSync(join(root, 'out', 'types.ts'), 'utf8');
    expect(types).toContain('Event119');
  });

  it('checks the 120-kind event union by dispatching on `type`', () => {
    const source = readFileSync(join(root, 'out', 'validators.ts'), 'utf8');
    const start = source.indexOf('function checkEvent(');
    const body = source.slice(start, source.indexOf('\n}\n', start));
    expect(body.match(/ case "event_\d+": /g)).toHaveLength(LARGE.eventKinds);
    const check = validators.responseValidators.getEvents!;
    expect(check({ result: 'success', msg: '', events: [{ type: 'event_7', id: 1 }, { type: 'event_119', id: 2, e119_f1: 3 }] })).toEqual([]);
    expect(check({ result: 'success', msg: '', events: [{ type: 'event_7' }] })).toEqual([{ path: '$.events[0].id', message: 'is required' }]);
    expect(check({ result: 'success', msg: '', events: [{ type: 'nope', id: 1 }] })).toHaveLength(1);
  });

  it('intersects the allOf chain: re-listed `id: {}` keeps `minimum: 1`, nullable fields take null', () => {
    const check = validators.responseValidators.getR3!;
    const item = { id: 1, name: null, level1: 'one', r3_a: 1.5, r3_c: null };
    expect(check({ result: 'success', msg: '', item })).toEqual([]);
    expect(check({ result: 'success', msg: '', item: { ...item, id: 0 } })).toEqual([{ path: '$.item.id', message: 'must be at least 1' }]);
    expect(check({ result: 'success', msg: '', item: { ...item, r3_a: 0 } })).toEqual([{ path: '$.item.r3_a', message: 'must be greater than 0' }]);
  });

  it('checks the several-hundred-field registration response', () => {
    const check = validators.responseValidators.register!;
    expect(check({ result: 'success', msg: '', field_0: 1, field_1: null, field_399: { a: 'b' } })).toEqual([]);
    expect(check({ result: 'success', msg: '', field_0: 1, field_398: 'yesterday' })).toEqual([{ path: '$.field_398', message: 'must be a valid date-time' }]);
  });
});
