/**
 * Regeneration in a copy of the project, as a developer lives it: a handler
 * body is edited by hand, then the spec gains a parameter and an operation
 * and loses another, and `teamchat generate` runs again. The hand-written
 * code must survive byte for byte, the new spec must reach the types and the
 * scaffolds, the orphaned handler must be reported and kept, and the result
 * must be up to date and, once the orphan is deleted by hand, type-check.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, type Document } from 'yaml';
import { describeRun, repoRoot, runNode, tscCli, tsxCli, type RunResult } from '../support/process.js';

const COPIED = ['spec', 'package-root.ts', 'generator', 'templates', 'runtime', 'generated', 'server', 'bin', 'package.json', 'tsconfig.json', 'redocly.yaml'];

const EDITED_HANDLER = 'server/handlers/get-linkifiers.ts';
const PARAM_HANDLER = 'server/handlers/update-channel-folder.ts';
const NEW_HANDLER = 'server/handlers/get-realm-emoji.ts';
const ORPHAN_HANDLER = 'server/handlers/create-video-call.ts';
const TYPE_PROBE = 'test/acceptance-probe.ts';

/** The new operation: a path file in the style of the others. */
const REALM_EMOJI_PATH = `get:
  operationId: get-realm-emoji
  summary: Get custom emoji
  description: |
    Returns the organization's custom emoji.
  tags: [organization]
  responses:
    '200':
      description: The custom emoji.
      content:
        application/json:
          schema:
            allOf:
              - $ref: ../components/schemas/SuccessEnvelope.yaml
              - type: object
                required: [emoji]
                properties:
                  emoji:
                    type: array
                    description: The organization's custom emoji.
                    items:
                      type: object
                      required: [id, name]
                      properties:
                        id:
                          type: integer
                          description: ID of the emoji.
                        name:
                          type: string
                          description: Name of the emoji.
          examples:
            one:
              summary: One custom emoji
              value:
                result: success
                msg: ''
                emoji:
                  - id: 7
                    name: octopus_ship
    '400':
      description: The request was refused (\`BAD_REQUEST\`).
      content:
        application/json:
          schema:
            $ref: ../components/schemas/BadRequestError.yaml
          examples:
            bad-request:
              summary: The request was malformed
              value:
                result: error
                msg: Invalid request
                code: BAD_REQUEST
    '401':
      $ref: ../components/responses/Unauthorized.yaml
`;

/**
 * Compiled with the copy's tsconfig: the new parameter is typed (a string,
 * optional) in both the params alias and the handler's first argument.
 */
const TYPE_PROBE_SOURCE = `import type { Handlers } from '../generated/server.js';
import type { UpdateChannelFolderParams } from '../generated/types.js';

type HandlerParams = Parameters<Handlers['updateChannelFolder']>[0];
export const withNote: UpdateChannelFolderParams = { channel_folder_id: 2, note: 'moved to the archive' };
export const withoutNote: HandlerParams = { channel_folder_id: 2 };
export const handlerNote: HandlerParams['note'] = 'typed as a string';
// @ts-expect-error \`note\` is a string
export const numericNote: UpdateChannelFolderParams = { channel_folder_id: 2, note: 5 };
`;

let root: string;
let before: Map<string, string>;
let generated: RunResult;

const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The file's text from the end of the doc comment of `export const <name>` on: the hand-written body. */
function bodyAfterDocComment(text: string, name: string): string {
  const declaration = text.indexOf(`export const ${name}`);
  expect(declaration, `no \`export const ${name}\``).toBeGreaterThan(0);
  const docEnd = text.lastIndexOf('*/', declaration);
  expect(docEnd, `no doc comment before \`export const ${name}\``).toBeGreaterThan(0);
  return text.slice(docEnd + 2);
}

function docComment(text: string, name: string): string {
  const declaration = text.indexOf(`export const ${name}`);
  return text.slice(text.lastIndexOf('/**', declaration), declaration);
}

function editYaml(path: string, edit: (doc: Document) => void): void {
  const doc = parseDocument(read(path));
  edit(doc);
  writeFileSync(join(root, path), doc.toString());
}

const generate = (...args: string[]) => runNode(tsxCli, ['generator/cli/main.ts', 'generate', ...args], { cwd: root, timeoutMs: 120_000 });
const typeCheck = () => runNode(tscCli, ['--noEmit', '-p', 'tsconfig.json'], { cwd: root, timeoutMs: 180_000 });

/** TypeScript files of the copy that import `<module>.js` by a relative path. */
function importersOf(module: string): string[] {
  const pattern = new RegExp(`(from|import\\()\\s*['"][^'"]*/${module}\\.js['"]`);
  return ['generator', 'generated', 'server', 'bin', 'test']
    .flatMap((dir) => readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((path) => join(dir, path)))
    .filter((path) => path.endsWith('.ts') && pattern.test(read(path)));
}

describe('regeneration after hand edits and spec changes', () => {
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'teamchat-regen-'));
    for (const entry of COPIED) cpSync(join(repoRoot, entry), join(root, entry), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'), 'dir');

    // A hand edit: a comment and a different return value in the body.
    const handler = read(EDITED_HANDLER);
    const start = handler.indexOf('export const getLinkifiers');
    expect(start, `${EDITED_HANDLER} has no \`export const getLinkifiers\``).toBeGreaterThan(0);
    writeFileSync(
      join(root, EDITED_HANDLER),
      handler.slice(0, start) +
        `export const getLinkifiers: Handlers['getLinkifiers'] = async () => {\n` +
        `  // Hand-edited: this organization has no linkifiers yet.\n` +
        `  return { linkifiers: [] };\n` +
        `};\n`,
    );

    // The spec: a new optional body field, a new operation, a removed operation.
    editYaml('spec/paths/channel_folders_{channel_folder_id}.yaml', (doc) => {
      const properties = ['patch', 'requestBody', 'content', 'application/x-www-form-urlencoded', 'schema', 'properties'];
      expect(doc.hasIn(properties), 'update-channel-folder has no form body properties').toBe(true);
      doc.setIn([...properties, 'note'], doc.createNode({ type: 'string', description: 'A note about the change, for the audit log.' }));
    });
    writeFileSync(join(root, 'spec/paths/realm_emoji.yaml'), REALM_EMOJI_PATH);
    editYaml('spec/openapi.yaml', (doc) => {
      expect(doc.hasIn(['paths', '/calls/videocall/create']), 'the spec has no /calls/videocall/create').toBe(true);
      doc.deleteIn(['paths', '/calls/videocall/create']);
      doc.setIn(['paths', '/realm/emoji'], doc.createNode({ $ref: 'paths/realm_emoji.yaml' }));
    });

    before = new Map([EDITED_HANDLER, PARAM_HANDLER, ORPHAN_HANDLER].map((path) => [path, read(path)]));
    generated = await generate();
  }, 180_000);

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('generates without failing', () => {
    expect(generated.code, describeRun('generate', generated)).toBe(0);
  });

  it('leaves the hand-edited handler byte-identical', () => {
    expect(read(EDITED_HANDLER)).toBe(before.get(EDITED_HANDLER));
  });

  it('types the new parameter and lists it in the handler doc comment, keeping the body', () => {
    const types = read('generated/types.ts');
    const operation = /^ {4}"update-channel-folder": \{$[\s\S]*?^ {4}\};$/m.exec(types)?.[0];
    expect(operation, 'generated/types.ts has no operations["update-channel-folder"]').toBeDefined();
    expect(operation).toMatch(/^\s+note\?: string;$/m);
    expect(types).toMatch(/^export type UpdateChannelFolderParams = operations\["update-channel-folder"\]/m);

    const handler = read(PARAM_HANDLER);
    const previous = before.get(PARAM_HANDLER)!;
    expect(docComment(handler, 'updateChannelFolder')).toContain('- `note` (string, body, optional)');
    expect(docComment(previous, 'updateChannelFolder')).not.toContain('`note`');
    expect(bodyAfterDocComment(handler, 'updateChannelFolder')).toBe(bodyAfterDocComment(previous, 'updateChannelFolder'));
    expect(handler.slice(0, handler.indexOf('/**'))).toBe(previous.slice(0, previous.indexOf('/**')));
  });

  it('scaffolds a handler for the new operation and wires it in', () => {
    expect(existsSync(join(root, NEW_HANDLER)), `${NEW_HANDLER} was not scaffolded`).toBe(true);
    const scaffold = read(NEW_HANDLER);
    expect(scaffold).toContain("export const getRealmEmoji: Handlers['getRealmEmoji']");
    expect(scaffold).toContain("name: 'octopus_ship'");
    expect(scaffold).toContain('GET /realm/emoji: Get custom emoji');
    expect(read('generated/handlers.ts')).toContain("from '../server/handlers/get-realm-emoji.js'");
    expect(read('generated/docs/reference/get-realm-emoji.md')).toContain('# Get custom emoji');
  });

  it('keeps the removed operation’s handler and reports it', () => {
    expect(read(ORPHAN_HANDLER)).toBe(before.get(ORPHAN_HANDLER));
    expect(generated.stdout + generated.stderr).toContain(ORPHAN_HANDLER);
    expect(read('generated/handlers.ts')).not.toContain('create-video-call');
    expect(read('generated/server.ts')).not.toContain('createVideoCall');
  });

  // DESIGN.md: "an operation removed from the spec is reported, not deleted". The kept file
  // still names `Handlers['createVideoCall']`, which the spec no longer has, so it cannot
  // compile; once its owner deletes it, as the report says, the project must. The check and
  // the type-check both only read the tree, so they run side by side.
  it('is up to date (generate --check) and type-checks once the reported orphan is deleted', async () => {
    mkdirSync(join(root, 'test'), { recursive: true });
    writeFileSync(join(root, TYPE_PROBE), TYPE_PROBE_SOURCE);
    expect(read(ORPHAN_HANDLER)).toContain("Handlers['createVideoCall']");
    expect(importersOf('create-video-call'), 'these files import the orphan').toEqual([]);
    unlinkSync(join(root, ORPHAN_HANDLER));

    const [check, tsc] = await Promise.all([generate('--check'), typeCheck()]);
    expect(check.code, describeRun('generate --check', check)).toBe(0);
    expect(tsc.code, describeRun('tsc --noEmit -p tsconfig.json', tsc)).toBe(0);
  }, 240_000);
});
