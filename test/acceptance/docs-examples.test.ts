/**
 * Every reference page's examples, run as a reader would run them: the curl
 * command through `sh`, the client snippet through tsx, both pointed at the
 * mock server (the real bindings answering with the spec's examples). Only
 * the documented base URL and the package import are rewritten.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../server/mock.js';
import { describeRun, repoRoot, run, runNode, tsxCli } from '../support/process.js';
import { OPERATION_COUNT, specOperations } from '../support/spec-operations.js';

const REFERENCE_DIR = join(repoRoot, 'generated/docs/reference');
/** The reference server's address, which every example uses. */
const DOCUMENTED_BASE = 'http://127.0.0.1:9991';
const CLIENT_IMPORT = "from 'teamchat-api/client'";
const API_KEY = 'mock-api-key';
/** Precedes the JSON result the appended line prints, so the example's own output can come first. */
const RESULT_MARKER = '@@result@@';

const pages = readdirSync(REFERENCE_DIR)
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ operationId: name.slice(0, -'.md'.length), text: readFileSync(join(REFERENCE_DIR, name), 'utf8') }))
  .sort((a, b) => (a.operationId < b.operationId ? -1 : 1));

let app: FastifyInstance;
let baseUrl: string;
let workDir: string;

/** The one fenced block of `language` in a page, failing with the page's name when there is not exactly one. */
function fencedBlock(operationId: string, text: string, language: string): string {
  const blocks = [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!);
  expect(blocks, `${operationId}.md should have exactly one \`\`\`${language} example`).toHaveLength(1);
  return blocks[0]!;
}

function pointAtMock(operationId: string, example: string): string {
  expect(example, `${operationId}.md: the example does not use the documented base URL ${DOCUMENTED_BASE}`).toContain(DOCUMENTED_BASE);
  return example.replaceAll(DOCUMENTED_BASE, baseUrl);
}

function expectSuccessBody(label: string, body: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new Error(`${label}: the body is not JSON:\n${body}`);
  }
  expect(parsed, `${label}: ${body}`).toMatchObject({ result: 'success', msg: '' });
}

describe('reference page examples against the mock server', () => {
  beforeAll(async () => {
    app = await createMockApp();
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    // The examples' working directory: an ES module project holding the file the upload examples send.
    workDir = mkdtempSync(join(tmpdir(), 'teamchat-docs-examples-'));
    writeFileSync(join(workDir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    writeFileSync(join(workDir, 'release-notes.pdf'), '%PDF-1.4\n% release notes\n');
  });

  afterAll(async () => {
    await app?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it(`has one reference page per operation of the spec, ${OPERATION_COUNT} in all`, async () => {
    const ids = (await specOperations()).map((operation) => operation.operationId);
    expect(ids).toHaveLength(OPERATION_COUNT);
    expect(pages.map((page) => page.operationId)).toEqual(ids);
  });

  // Each example is its own process; running them side by side keeps the suite short.
  describe.concurrent.each(pages)('$operationId', ({ operationId, text }) => {
    it('curl example succeeds', async () => {
      const script = pointAtMock(operationId, fencedBlock(operationId, text, 'sh'));
      // The status code goes on a line of its own after the body.
      const command = `${script.trimEnd()} \\\n  -w '\\n%{http_code}'`;
      const result = await run('sh', ['-c', command], { cwd: workDir, env: { ...process.env, API_KEY }, timeoutMs: 10_000 });
      expect(result.code, describeRun(`curl example of ${operationId}`, result)).toBe(0);
      const status = result.stdout.slice(result.stdout.lastIndexOf('\n') + 1);
      const body = result.stdout.slice(0, result.stdout.lastIndexOf('\n'));
      expect(status, `${operationId}: HTTP status of the curl example; body: ${body}`).toBe('200');
      expectSuccessBody(`curl example of ${operationId}`, body);
    });

    it('client example runs and returns success', async () => {
      const source = pointAtMock(operationId, fencedBlock(operationId, text, 'ts'));
      expect(source, `${operationId}.md: the client example does not import the client as \`${CLIENT_IMPORT}\``).toContain(CLIENT_IMPORT);
      expect(source, `${operationId}.md: the client example does not bind \`const result = await client.…\``).toMatch(
        /^const result = await client\.\w+\(/m,
      );
      const clientUrl = pathToFileURL(join(repoRoot, 'generated/client.ts')).href;
      const program =
        source.replace(CLIENT_IMPORT, `from '${clientUrl}'`) +
        `process.stdout.write('\\n${RESULT_MARKER}' + JSON.stringify(result) + '\\n');\n`;
      const file = join(workDir, `${operationId}.ts`);
      writeFileSync(file, program);
      const result = await runNode(tsxCli, [file], { cwd: workDir, env: { ...process.env, API_KEY }, timeoutMs: 20_000 });
      expect(result.code, describeRun(`client example of ${operationId}`, result)).toBe(0);
      const printed = result.stdout.slice(result.stdout.lastIndexOf(RESULT_MARKER) + RESULT_MARKER.length).trim();
      expect(result.stdout, `client example of ${operationId} printed no result`).toContain(RESULT_MARKER);
      expectSuccessBody(`client example of ${operationId}`, printed);
    });
  });
});
