/**
 * A large OpenAPI 3.0 document shaped like the descriptions of big public
 * APIs, made by a script (never committed as a file): more than a thousand
 * operations over a few hundred resources, each resource schema a deep
 * `allOf` chain with `nullable` fields, an event union of more than a hundred
 * object kinds told apart by `type`, and a registration response with
 * several hundred fields. Used by the generation test and the benchmark.
 */

export interface SyntheticOptions {
  /** Resources; each has five operations (list, create, get, update, delete). */
  resources: number;
  /** Object kinds in the event union. */
  eventKinds: number;
  /** Fields of the registration response. */
  wideFields: number;
  /** Levels of the `allOf` chain every resource schema extends. */
  depth: number;
}

export const LARGE: SyntheticOptions = { resources: 210, eventKinds: 120, wideFields: 400, depth: 6 };

type Node = Record<string, unknown>;

const ref = (name: string): Node => ({ $ref: `#/components/schemas/${name}` });
const success = (properties: Node, required: string[]): Node => ({
  allOf: [ref('SuccessEnvelope'), { type: 'object', required, properties }],
});
const json = (schema: Node): Node => ({ 'application/json': { schema } });
const form = (schema: Node): Node => ({ content: { 'application/x-www-form-urlencoded': { schema } } });

/** Field `i` of a generated object: the usual JSON types in turn, some nullable, some constrained. */
function field(i: number): Node {
  switch (i % 8) {
    case 0:
      return { type: 'integer', minimum: 0, description: `Field ${i}.` };
    case 1:
      return { type: 'string', nullable: true, maxLength: 200 };
    case 2:
      return { type: 'boolean', example: true };
    case 3:
      return { type: 'number', exclusiveMinimum: true, minimum: 0 };
    case 4:
      return { type: 'string', enum: ['low', 'medium', 'high'] };
    case 5:
      return { type: 'array', items: { type: 'integer' }, uniqueItems: true };
    case 6:
      return { type: 'string', format: 'date-time', nullable: true };
    default:
      return { type: 'object', additionalProperties: { type: 'string' } };
  }
}

const ERRORS: [string, number][] = [
  ['BAD_REQUEST', 400],
  ['UNAUTHORIZED', 401],
  ['NOT_FOUND', 404],
  ['METHOD_NOT_ALLOWED', 405],
  ['REQUEST_TOO_LARGE', 413],
  ['INTERNAL_ERROR', 500],
];

const pascal = (code: string): string => code.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

export function syntheticSpec(options: SyntheticOptions = LARGE): Node {
  const schemas: Node = {
    SuccessEnvelope: {
      type: 'object',
      required: ['result', 'msg'],
      properties: { result: { type: 'string', enum: ['success'] }, msg: { type: 'string' } },
    },
    ErrorEnvelope: {
      type: 'object',
      required: ['result', 'msg', 'code'],
      properties: { result: { type: 'string', enum: ['error'] }, msg: { type: 'string' }, code: { type: 'string' } },
    },
  };
  for (const [code, status] of ERRORS) {
    schemas[`${pascal(code)}Error`] = {
      'x-error-code': code,
      'x-http-status': status,
      allOf: [ref('ErrorEnvelope'), { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: [code] } } }],
    };
  }

  // The allOf chain: Level0 <- Level1 <- ... each adding fields and re-listing one of its base's.
  schemas.Level0 = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', nullable: true } } };
  for (let level = 1; level < options.depth; level++) {
    schemas[`Level${level}`] = {
      allOf: [
        ref(`Level${level - 1}`),
        { description: `Level ${level} of the chain.` },
        { type: 'object', properties: { [`level${level}`]: field(level), id: {} } },
      ],
    };
  }
  const top = `Level${options.depth - 1}`;

  for (let e = 0; e < options.eventKinds; e++) {
    const properties: Node = { type: { type: 'string', enum: [`event_${e}`] }, id: { type: 'integer' } };
    for (let f = 0; f < 4; f++) properties[`e${e}_f${f}`] = field(e + f);
    schemas[`Event${e}`] = { type: 'object', required: ['type', 'id'], properties };
  }
  schemas.Event = {
    oneOf: Array.from({ length: options.eventKinds }, (_, e) => ref(`Event${e}`)),
    discriminator: { propertyName: 'type' },
  };

  const wide: Node = {};
  for (let f = 0; f < options.wideFields; f++) wide[`field_${f}`] = field(f);
  schemas.Registration = { type: 'object', required: ['field_0'], properties: wide };

  const paths: Node = {};
  const errors = { '400': { description: 'Bad request.', content: json(ref('BadRequestError')) } };
  for (let r = 0; r < options.resources; r++) {
    const name = `Resource${r}`;
    const own: Node = { [`r${r}_a`]: field(r), [`r${r}_b`]: field(r + 1), [`r${r}_c`]: { ...field(r + 2), nullable: true } };
    schemas[name] = { allOf: [ref(top), { type: 'object', required: [`r${r}_a`], properties: own }] };
    const item = { $ref: `#/components/schemas/${name}` };
    const id = { name: 'item_id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
    const writable = { type: 'object', properties: { [`r${r}_a`]: { type: 'integer', minimum: 0 }, [`r${r}_b`]: { type: 'string' } } };
    paths[`/r${r}/items`] = {
      get: {
        operationId: `list-r${r}`,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'A page.', content: json(success({ items: { type: 'array', items: item } }, ['items'])) }, ...errors },
      },
      post: {
        operationId: `create-r${r}`,
        requestBody: form({ ...writable, required: [`r${r}_a`] }),
        responses: { '200': { description: 'Created.', content: json(success({ id: { type: 'integer' } }, ['id'])) }, ...errors },
      },
    };
    paths[`/r${r}/items/{item_id}`] = {
      get: {
        operationId: `get-r${r}`,
        parameters: [id],
        responses: { '200': { description: 'One.', content: json(success({ item }, ['item'])) }, ...errors },
      },
      patch: {
        operationId: `update-r${r}`,
        parameters: [id],
        requestBody: form(writable),
        responses: { '200': { description: 'Updated.', content: json(success({}, [])) }, ...errors },
      },
      delete: {
        operationId: `delete-r${r}`,
        parameters: [id],
        responses: { '200': { description: 'Deleted.', content: json(success({}, [])) }, ...errors },
      },
    };
  }
  paths['/events'] = {
    get: {
      operationId: 'get-events',
      parameters: [{ name: 'last_event_id', in: 'query', schema: { type: 'integer' } }],
      responses: {
        '200': { description: 'Events.', content: json(success({ events: { type: 'array', items: ref('Event') } }, ['events'])) },
        ...errors,
      },
    },
  };
  paths['/register'] = {
    post: {
      operationId: 'register',
      responses: { '200': { description: 'The initial state.', content: json({ allOf: [ref('SuccessEnvelope'), ref('Registration')] }) }, ...errors },
    },
  };

  return {
    openapi: '3.0.3',
    info: { title: 'Synthetic large API', version: '1.0.0', description: 'Made by test/support/synthetic-spec.ts.' },
    servers: [{ url: '/api/v1' }],
    security: [{ basicAuth: [] }],
    paths,
    components: {
      securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } },
      responses: {},
      schemas,
    },
  };
}
