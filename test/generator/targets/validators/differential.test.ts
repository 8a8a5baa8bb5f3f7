/**
 * The generated validators and ajv (compiled from the equivalent JSON Schema)
 * must reach the same verdict on the same values.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../../generator/model/types.js';
import { arbitraryFor } from '../../../fixtures/validators/arbitraries.js';
import { definitions, errorBodyJsonSchema, toJsonSchema, type JsonSchema } from '../../../fixtures/validators/json-schema.js';
import { fixtureModel } from '../../../fixtures/validators/model.js';
import { loadGenerated, type GeneratedValidators, removeWritten } from '../../../fixtures/validators/load.js';

const model = fixtureModel();
// Own keys only, as the generated checks enumerate them (decision 0019); the values here are plain objects either way.
const ajv = new Ajv2020({ strict: false, allErrors: false, ownProperties: true });
ajv.addSchema(definitions(model));

let generated: GeneratedValidators;
beforeAll(async () => {
  generated = await loadGenerated(model);
});

const RUNS = 300;

function agree(schema: JsonSchema, arbitrary: fc.Arbitrary<unknown>, ours: (value: unknown) => boolean) {
  const theirs = ajv.compile(schema);
  let valid = 0;
  let invalid = 0;
  fc.assert(
    fc.property(arbitrary, (value) => {
      const verdict = ours(value);
      if (verdict) valid++;
      else invalid++;
      expect(verdict, JSON.stringify(value)).toBe(theirs(value));
    }),
    { numRuns: RUNS, seed: 4361 },
  );
  return { valid, invalid };
}

afterAll(removeWritten);

describe('generated validators agree with ajv', () => {
  it.each(model.operations.map((o) => [o.names.camel, o] as const))('success body of %s', (camel, operation) => {
    const counts = agree(toJsonSchema(operation.success.schema), arbitraryFor(operation.success.schema, model), (value) =>
      generated.responseValidators[camel]!(value).length === 0,
    );
    // The generators must exercise both verdicts, or the comparison proves little.
    expect(counts.valid).toBeGreaterThan(RUNS / 20);
    expect(counts.invalid).toBeGreaterThan(RUNS / 10);
  });

  it('error bodies', () => {
    const errors: Schema = { kind: 'union', variants: model.errors.map((e): Schema => ({ kind: 'ref', name: e.schemaName })) };
    const counts = agree(errorBodyJsonSchema(model), arbitraryFor(errors, model), (value) => generated.validateErrorBody(value).length === 0);
    expect(counts.valid).toBeGreaterThan(RUNS / 10);
    expect(counts.invalid).toBeGreaterThan(RUNS / 10);
  });

  /** Required parameters other than the one under test, with valid wire values. */
  const baseRequests: Record<string, { path?: Record<string, string>; body: Record<string, string> }> = {
    updateScheduledMessage: { path: { scheduled_message_id: '21' }, body: {} },
    updateStream: { path: { stream_id: '2' }, body: {} },
    sendInvites: { body: { invitee_emails: 'a@example.com', stream_ids: '[]' } },
    updateMessageFlagsForNarrow: { body: { anchor: 'newest', num_before: '0', num_after: '0', op: 'add', flag: 'read' } },
  };
  const jsonParameters = model.operations.flatMap((operation) =>
    operation.parameters
      .filter((p) => p.encoding === 'json' && baseRequests[operation.names.camel] !== undefined)
      .map((p) => [`${operation.names.camel}.${p.name}`, operation.names.camel, p] as const),
  );

  it('covers JSON-encoded parameters', () => expect(jsonParameters.length).toBeGreaterThanOrEqual(8));

  it.each(jsonParameters)('decoded JSON parameter %s', (_label, camel, parameter) => {
    const base = baseRequests[camel]!;
    const counts = agree(toJsonSchema(parameter.schema), arbitraryFor(parameter.schema, model), (value) => {
      const result = generated.decoders[camel]!({
        path: base.path ?? {},
        query: {},
        body: { ...base.body, [parameter.name]: JSON.stringify(value) },
      });
      if (!result.ok) expect(result.error.parameter).toBe(parameter.name);
      return result.ok;
    });
    expect(counts.valid).toBeGreaterThan(RUNS / 10);
    expect(counts.invalid).toBeGreaterThan(RUNS / 20);
  });
});
