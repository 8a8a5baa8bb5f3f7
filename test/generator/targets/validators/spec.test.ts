/** The validators generated from the real spec accept the spec's own examples. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../../generator/load/index.js';
import { buildModel } from '../../../../generator/model/build.js';
import type { ApiModel } from '../../../../generator/model/types.js';
import { loadGenerated, type GeneratedValidators, removeWritten } from '../../../fixtures/validators/load.js';
import { toWire } from '../../../fixtures/validators/wire.js';

const root = join(import.meta.dirname, '..', '..', '..', '..');
let model: ApiModel;
let generated: GeneratedValidators;

beforeAll(async () => {
  model = buildModel(await loadSpec('spec/openapi.yaml', root));
  generated = await loadGenerated(model);
});

afterAll(removeWritten);

describe('validators generated from spec/', () => {
  it('has a decoder and a response validator for every operation', () => {
    const names = model.operations.map((o) => o.names.camel).sort();
    expect(Object.keys(generated.decoders).sort()).toEqual(names);
    expect(Object.keys(generated.responseValidators).sort()).toEqual(names);
  });

  it('accepts every success example, in strict mode', () => {
    let checked = 0;
    for (const operation of model.operations) {
      for (const example of operation.success.examples) {
        const issues = generated.responseValidators[operation.names.camel]!(example.value, { strict: true, allErrors: true });
        expect(issues, `${operation.id} example ${example.name}`).toEqual([]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(model.operations.length);
  });

  it('accepts every error example, in strict mode', () => {
    let checked = 0;
    for (const operation of model.operations) {
      for (const error of operation.errors) {
        for (const example of error.examples) {
          const issues = generated.validateErrorBody(example.value, { strict: true, allErrors: true });
          expect(issues, `${operation.id} ${error.status} example ${example.name}`).toEqual([]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('decodes every request example back to its values', () => {
    let checked = 0;
    for (const operation of model.operations) {
      for (const example of operation.requestExamples) {
        const values = example.value as Record<string, unknown>;
        const result = generated.decoders[operation.names.camel]!(toWire(operation, values));
        expect(result, `${operation.id} example ${example.name}`).toMatchObject({ ok: true, unsupported: [] });
        if (!result.ok) continue;
        for (const parameter of operation.parameters) {
          if (values[parameter.name] === undefined || parameter.encoding === 'file') continue;
          expect(result.value[parameter.name], `${operation.id} ${parameter.name}`).toEqual(values[parameter.name]);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('rejects an error body with a code the spec does not know', () => {
    expect(generated.validateErrorBody({ result: 'error', msg: 'x', code: 'NOT_A_CODE' })).toEqual([
      { path: '$.code', message: expect.stringMatching(/^must be one of "BAD_REQUEST", /) },
    ]);
  });
});
