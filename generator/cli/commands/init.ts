/**
 * `teamchat init`: a starter config and a one-operation spec in the current
 * folder, plus a `generate` script when there is a package.json. Existing
 * files are never overwritten.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArgumentsCamelCase, Argv, InferredOptionTypes } from 'yargs';
import { ConfigError, type UserConfig } from '../../config.js';
import { CONFIG_FILES } from '../../config-file.js';
import { wrap, type Output } from '../wrapper.js';

const initOptions = {
  format: { choices: ['json', 'mjs', 'ts'] as const, default: 'json' as const, describe: 'config file format' },
} as const;

type Args = ArgumentsCamelCase<InferredOptionTypes<typeof initOptions>>;

const SPEC_FILE = 'openapi.yaml';

/** What `init` starts a project with: the targets that need nothing beyond the generator itself. */
export const STARTER_CONFIG: UserConfig = {
  spec: SPEC_FILE,
  out: 'generated',
  targets: ['types', 'validators', 'client', 'client-package'],
  clientPackage: { name: 'my-api-client', version: '0.1.0' },
};

const STARTER_SPEC = `openapi: 3.1.0
info:
  title: My API
  version: 0.1.0
servers:
  - url: http://127.0.0.1:9991/api/v1
security:
  - basicAuth: []
paths:
  /greeting:
    get:
      operationId: get-greeting
      summary: Greet someone
      parameters:
        - name: name
          in: query
          required: true
          description: Who to greet.
          schema:
            type: string
            minLength: 1
          example: Ada
      responses:
        '200':
          description: The greeting.
          content:
            application/json:
              schema:
                type: object
                required: [result, msg, message]
                properties:
                  result: { type: string, const: success }
                  msg: { type: string }
                  message: { type: string }
              example:
                result: success
                msg: ''
                message: Hello, Ada!
        '400':
          $ref: '#/components/responses/BadRequest'
components:
  securitySchemes:
    basicAuth:
      type: http
      scheme: basic
  responses:
    BadRequest:
      description: The request was refused.
      content:
        application/json:
          schema:
            $ref: '#/components/schemas/BadRequestError'
  # Errors the generated server bindings answer with, typed by their \`code\`.
  schemas:
    Error:
      type: object
      required: [result, msg, code]
      properties:
        result: { type: string, const: error }
        msg: { type: string }
        code: { type: string }
    BadRequestError:
      x-error-code: BAD_REQUEST
      x-http-status: 400
      description: A missing or malformed parameter.
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: BAD_REQUEST }
    UnauthorizedError:
      x-error-code: UNAUTHORIZED
      x-http-status: 401
      description: Missing or wrong credentials.
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: UNAUTHORIZED }
    NotFoundError:
      x-error-code: NOT_FOUND
      x-http-status: 404
      description: No operation at this path.
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: NOT_FOUND }
    MethodNotAllowedError:
      x-error-code: METHOD_NOT_ALLOWED
      x-http-status: 405
      description: The path exists, but not with this method.
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: METHOD_NOT_ALLOWED }
    RequestTooLargeError:
      x-error-code: REQUEST_TOO_LARGE
      x-http-status: 413
      description: The request body is over the limit.
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: REQUEST_TOO_LARGE }
    InternalError:
      x-error-code: INTERNAL_ERROR
      x-http-status: 500
      description: The server failed.
      allOf:
        - $ref: '#/components/schemas/Error'
        - type: object
          properties:
            code: { const: INTERNAL_ERROR }
`;

function configText(format: 'json' | 'mjs' | 'ts'): string {
  const body = JSON.stringify(STARTER_CONFIG, null, 2);
  if (format === 'json') return `${body}\n`;
  return `import { defineConfig } from 'teamchat-api';\n\nexport default defineConfig(${body});\n`;
}

export const initCommand = {
  command: 'init',
  describe: 'write a starter teamchat.config and a one-operation spec into the current folder',
  builder: (yargs: Argv) => yargs.options(initOptions),
  handler: wrap('init', async (args: Args, output: Output) => {
    const root = process.cwd();
    const present = [...CONFIG_FILES, SPEC_FILE].filter((name) => existsSync(join(root, name)));
    if (present.length > 0) throw new ConfigError(`${present.join(', ')} already exist${present.length === 1 ? 's' : ''} here; init writes only into a project without them`);
    const configFile = `teamchat.config.${args.format}`;
    await writeFile(join(root, SPEC_FILE), STARTER_SPEC);
    await writeFile(join(root, configFile), configText(args.format));
    output.out(`wrote ${configFile} and ${SPEC_FILE}`);
    if (await addGenerateScript(root)) output.out('added the script `generate` (teamchat generate) to package.json');
    output.out('next: npx teamchat generate');
    return 0;
  }),
};

/** Adds `"generate": "teamchat generate"` (what the generated banners name) unless the project has its own. */
async function addGenerateScript(root: string): Promise<boolean> {
  const path = join(root, 'package.json');
  if (!existsSync(path)) return false;
  const text = readFileSync(path, 'utf8');
  const manifest = JSON.parse(text) as { scripts?: Record<string, string> };
  if (manifest.scripts?.generate !== undefined) return false;
  manifest.scripts = { ...manifest.scripts, generate: 'teamchat generate' };
  const indent = /^\{\n([ \t]+)/.exec(text)?.[1] ?? '  ';
  await writeFile(path, `${JSON.stringify(manifest, null, indent)}\n`);
  return true;
}
