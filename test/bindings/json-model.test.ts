/**
 * The server target on a hand-built model of a JSON API (no conventions of
 * ours): what the route table says beyond method and path (security, whole
 * bodies, primary status, response media types), the handler and respond
 * types, the mock's answers, the credential union, and the error schema
 * picked for framework errors (docs/decisions/0015-framework-errors.md).
 */
import { describe, expect, it } from 'vitest';
import type { ApiModel, Schema } from '../../generator/model/types.js';
import { findErrorFormat } from '../../generator/targets/server/error-format.js';
import { sampleValue } from '../../generator/targets/server/samples.js';
import { artifactDir, output, runTarget } from './fixture/harness.js';
import { anyObject, failure, int, jsonContent, names, operation, param, response } from '../support/model.js';
import { fixtureModel } from './fixture/model.js';

const source = { file: 'spec/pets.yaml' };
const petSchema: Schema = { kind: 'ref', name: 'Pet' };
const errorSchema: Schema = { kind: 'ref', name: 'Error' };

function jsonModel(): ApiModel {
  const model = fixtureModel();
  const location = {
    name: 'Location',
    names: names('location'),
    required: true,
    schema: { kind: 'string', examples: ['/v2/pets/3'] } as Schema,
    description: '',
    changes: [],
    deprecated: false,
    unspecified: [],
    source,
  };
  const created = response(201, petSchema, { headers: [location] });
  const png = response(200, { kind: 'string' }, { contents: [{ mediaType: 'image/png', kind: 'binary', schema: { kind: 'string' }, examples: [] }] });
  const health = response(200, anyObject(), { contents: [jsonContent(anyObject(), [{ name: 'ok', summary: '', value: { status: 'ok' } }])] });
  const noContent = response(204, { kind: 'any' }, { contents: [] });
  return {
    ...model,
    title: 'Pets',
    basePath: '/v2',
    conventions: { successEnvelope: false, bodyCodedErrors: false, featureLevels: false },
    errors: [],
    maxFeatureLevel: 0,
    securitySchemes: [
      { name: 'bearerAuth', names: names('bearerAuth'), description: '', kind: 'bearer', source },
      { name: 'apiKey', names: names('apiKey'), description: '', kind: 'apiKey', in: 'header', parameterName: 'X-API-Key', source },
    ],
    schemas: [
      {
        name: 'Pet',
        names: names('Pet'),
        schema: {
          kind: 'object',
          additionalProperties: true,
          properties: [
            { name: 'id', names: names('id'), required: true, schema: { kind: 'integer', minimum: 1 } },
            { name: 'name', names: names('name'), required: true, schema: { kind: 'string', minLength: 1 } },
            { name: 'tag', names: names('tag'), required: false, schema: { kind: 'string' } },
          ],
        },
      },
      {
        name: 'Error',
        names: names('Error'),
        schema: {
          kind: 'object',
          additionalProperties: false,
          properties: [
            { name: 'code', names: names('code'), required: true, schema: { kind: 'integer' } },
            { name: 'message', names: names('message'), required: true, schema: { kind: 'string' } },
            { name: 'kind', names: names('kind'), required: true, schema: { kind: 'string', const: 'error' } },
          ],
        },
      },
    ],
    operations: [
      operation('create-pet', 'post', '/pets', [], {
        basePath: '/v2',
        security: [['bearerAuth'], ['apiKey']],
        body: 'json',
        requestBody: {
          required: true,
          description: '',
          mode: 'whole',
          parameterName: 'body',
          contents: [{ mediaType: 'application/json', kind: 'json', schema: petSchema, examples: [] }],
          source,
        },
        success: created,
        successes: [created],
        errors: [failure(400, errorSchema), failure(0, errorSchema, 'default')],
      }),
      operation('get-photo', 'get', '/pets/{pet-id}/photo', [param('pet-id', int(), { location: 'path', required: true })], {
        basePath: '/v2',
        security: [[], ['bearerAuth']],
        auth: false,
        success: png,
        successes: [png],
        errors: [failure(404, errorSchema)],
      }),
      operation('delete-pet', 'delete', '/pets/{id}', [param('id', int(), { location: 'path', required: true })], {
        basePath: '/v2',
        security: [['bearerAuth']],
        body: 'none',
        success: noContent,
        successes: [noContent],
        errors: [failure(404, errorSchema), failure(409, undefined)],
      }),
      operation('health', 'get', '/health', [], { basePath: '/v2', auth: false, security: [], success: health, successes: [health] }),
    ],
  };
}

describe('server target on a JSON API model', () => {
  it('writes security, whole bodies, the primary status and response media types into the route table', async () => {
    const server = output(await runTarget(jsonModel(), artifactDir()), 'generated/server.ts');
    expect(server).toContain("    security: [['bearerAuth'], ['apiKey']],\n    body: { required: true, contents: [{ mediaType: 'application/json', kind: 'json' }] },\n    status: 201,");
    expect(server).toContain("path: '/v2/pets/:p0/photo',");
    expect(server).toContain("pathNames: { p0: 'pet-id' },");
    expect(server).toContain("responses: { 200: [{ mediaType: 'image/png', kind: 'binary' }], 404: [{ mediaType: 'application/json', kind: 'json' }] },");
    expect(server).toContain("    security: [[], ['bearerAuth']],");
    expect(server).toContain('successEnvelope: false,');
  });

  it('types handlers by the primary body, the user by the security requirement, and respond by every declared response', async () => {
    const server = output(await runTarget(jsonModel(), artifactDir()), 'generated/server.ts');
    expect(server).toContain('  createPet: Handler<CreatePetParams, unknown, User, CreatePetResponded>;');
    expect(server).toContain('  getPhoto: Handler<GetPhotoParams, Uint8Array | string, User | undefined, GetPhotoResponded>;');
    expect(server).toContain('  deletePet: Handler<DeletePetParams, void, User, DeletePetResponded>;');
    expect(server).toContain('  health: Handler<HealthParams, unknown, undefined, HealthResponded>;');
    expect(server).toContain("  | Responded<201, unknown, { 'location': string | number | boolean | readonly string[] }>");
    expect(server).toContain('  | Responded<number, unknown, undefined>;');
    expect(server).toContain("export type Credential = TokenCredential<'bearerAuth', 'bearer'> | ApiKeyCredential<'apiKey'>;");
    expect(server).not.toContain('HandlerResult<');
  });

  it('mocks each primary success: an example, a value made from the schema, no body, with required headers', async () => {
    const mock = output(await runTarget(jsonModel(), artifactDir()), 'generated/mock-handlers.ts');
    expect(mock).toContain("  createPet: async (_params, ctx) => ctx.respond(201, {\n    id: 1,\n    name: 'x',\n  } as never, { 'location': '/v2/pets/3' } as never),");
    expect(mock).toContain("  getPhoto: constantHandler('' as never),");
    expect(mock).toContain('  deletePet: async () => undefined,');
    expect(mock).toContain("  health: constantHandler({\n    status: 'ok',\n  } as never),");
  });

  it('scaffolds handlers that type-check without examples of their type: they throw notImplemented', async () => {
    const emitted = await runTarget(jsonModel(), artifactDir());
    const scaffold = output(emitted, 'server/handlers/create-pet.ts');
    expect(scaffold).toContain("import { notImplemented, type Handlers } from '../../generated/server.js';");
    expect(scaffold).toContain("throw notImplemented('create-pet has no success example in the spec, and no implementation yet');");
  });

  it('routes path keys that differ only by a fragment to one path, reporting that the first is served', async () => {
    const model = jsonModel();
    model.operations.push(
      operation('list-a', 'get', '/pets#a', [], { basePath: '/v2', security: [] }),
      operation('list-b', 'get', '/pets#b', [], { basePath: '/v2', security: [] }),
    );
    const emitted = await runTarget(model, artifactDir());
    expect(output(emitted, 'generated/server.ts')).toContain("operationId: 'list-b',\n    method: 'GET',\n    path: '/v2/pets',");
    expect(emitted.reports).toContain('server target: list-b has the method and path of list-a (GET /pets#b); the bindings serve list-a there');
  });

  it('finds the error schema and fills message and status, the rest from the schema', () => {
    expect(findErrorFormat(jsonModel())).toEqual({
      schemaName: 'Error',
      mediaType: 'application/json',
      template: { code: 0, message: '', kind: 'error' },
      message: ['message'],
      status: ['code'],
    });
  });

  it('takes no error schema that half or fewer of the error responses with a body use, nor one without a message-like field', () => {
    const model = jsonModel();
    for (const op of model.operations) op.errors = op.errors.map((error) => (error.status === 0 ? error : failure(error.status, { kind: 'string' })));
    expect(findErrorFormat(model)).toBeUndefined();
    const noMessage = jsonModel();
    noMessage.schemas = noMessage.schemas.map((named) =>
      named.name === 'Error' ? { ...named, schema: { kind: 'object', properties: [], additionalProperties: true } } : named,
    );
    expect(findErrorFormat(noMessage)).toBeUndefined();
  });

  it('keeps body-coded errors: no error schema guessed', () => {
    const model = jsonModel();
    model.conventions.bodyCodedErrors = true;
    expect(findErrorFormat(model)).toBeUndefined();
  });

  it('makes values that respect bounds, formats, consts, enums and required properties', () => {
    const model = jsonModel();
    expect(sampleValue({ kind: 'integer', minimum: 3, multipleOf: 2 }, model)).toBe(4);
    expect(sampleValue({ kind: 'number', exclusiveMinimum: 0.5 }, model)).toBe(1);
    expect(sampleValue({ kind: 'string', format: 'date-time' }, model)).toBe('1970-01-01T00:00:00Z');
    expect(sampleValue({ kind: 'string', minLength: 3 }, model)).toBe('xxx');
    expect(sampleValue({ kind: 'string', enum: ['b', 'a'] }, model)).toBe('b');
    expect(sampleValue({ kind: 'array', items: { kind: 'boolean' }, minItems: 2 }, model)).toEqual([false, false]);
    expect(sampleValue(petSchema, model)).toEqual({ id: 1, name: 'x' });
    expect(sampleValue({ kind: 'never' }, model)).toBeUndefined();
    // A required property or a list element that nothing satisfies: nothing satisfies the whole either.
    const never: Schema = { kind: 'never' };
    expect(sampleValue({ kind: 'object', properties: [{ name: 'a', names: names('a'), required: true, schema: never }], additionalProperties: true }, model)).toBeUndefined();
    expect(sampleValue({ kind: 'object', properties: [{ name: 'a', names: names('a'), required: false, schema: never }], additionalProperties: true }, model)).toEqual({});
    expect(sampleValue({ kind: 'array', items: never, minItems: 1 }, model)).toBeUndefined();
    expect(sampleValue({ kind: 'union', variants: [{ kind: 'array', items: never, minItems: 1 }, { kind: 'null' }] }, model)).toBeNull();
  });
});
