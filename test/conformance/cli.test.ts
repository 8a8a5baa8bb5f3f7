/**
 * The `teamchat conformance` command as installed (bin/teamchat.js, compiled
 * dist/) against the mock of our spec: the safety line, the JSON and JUnit
 * reports, the exit status, and refusals of bad input.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp } from '../../server/mock.js';
import { describeRun, repoRoot, runNode } from '../support/process.js';

const CLI = join(repoRoot, 'bin/teamchat.js');
let app: FastifyInstance;
let url: string;
let broken = false;

beforeAll(async () => {
  app = await createMockApp();
  // A planted fault, switched on by one test: the own-user answer without its user ID.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!broken || !request.url.startsWith('/api/v1/users/me') || request.headers.authorization === undefined) return payload;
    const body = JSON.parse(Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload)) as Record<string, unknown>;
    delete body.user_id;
    return JSON.stringify(body);
  });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
});

function conformance(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runNode(CLI, ['conformance', ...args], { cwd: repoRoot, env: { ...process.env, CI: 'true', ...env }, timeoutMs: 120_000 });
}

describe('teamchat conformance', { timeout: 150_000 }, () => {
  it('passes the mock, safe methods only, and says so; --report json is one object on stdout', async () => {
    broken = false;
    const result = await conformance([url, '--auth', 'basicAuth=me@example.com:key', '--seed', '7', '--max-requests', '40', '--report', 'json']);
    expect(result.code, describeRun('conformance', result)).toBe(0);
    expect(result.stderr).toContain('safe methods only (GET, HEAD, OPTIONS, TRACE); --allow-writes sends the others (seed 7)');
    const report = JSON.parse(result.stdout) as { failures: unknown[]; summary: { seed: number; requests: number; operationsTested: string[]; skipped: { operationId: string }[] } };
    expect(report.failures).toEqual([]);
    expect(report.summary.seed).toBe(7);
    expect(report.summary.requests).toBeGreaterThan(10);
    expect(report.summary.requests).toBeLessThanOrEqual(40);
    expect(report.summary.operationsTested.sort()).toEqual(['get-linkifiers', 'get-message', 'get-message-history', 'get-own-user']);
    expect(report.summary.skipped.map((s) => s.operationId)).toContain('update-user');
  });

  it('exits 1 on a failure, with a JUnit report naming the rule', async () => {
    broken = true;
    const result = await conformance([url, '--operations', 'get-own-user', '--seed', '1', '--max-requests', '20', '--report', 'junit'], { TEAMCHAT_AUTH_BASICAUTH: 'me@example.com:key' });
    expect(result.code, describeRun('conformance', result)).toBe(1);
    expect(result.stdout).toMatch(/^<\?xml/);
    expect(result.stdout).toContain('<testcase classname="conformance.get-own-user" name="response-schema">');
    expect(result.stdout).toContain('curl -sS -i -X GET');
  });

  it('prints failures for people by default, with the rule, the path, the file and line, and the curl', async () => {
    broken = true;
    const result = await conformance([url, '--operations', 'get-own-user', '--seed', '1', '--max-requests', '20', '--auth', 'basicAuth=me@example.com:key']);
    expect(result.code, describeRun('conformance', result)).toBe(1);
    expect(result.stdout).toContain('1) get-own-user (GET /api/v1/users/me): response-schema');
    expect(result.stdout).toContain('$.user_id');
    expect(result.stdout).toMatch(/the document says: .*\(spec\/components\/schemas\/OwnUser\.yaml:\d+\)/);
    expect(result.stdout).toContain('-u "${TEAMCHAT_AUTH_BASICAUTH}"');
    expect(result.stdout).not.toContain('me@example.com:key');
  });

  it.each([
    [['not a url'], 'the base URL must be an absolute http(s) URL'],
    [['ftp://example.com'], 'the base URL must be http or https'],
    [['http://127.0.0.1:1', '--auth', 'nope=x'], '--auth "nope=x": name one of the document\'s security schemes (basicAuth)'],
    [['http://127.0.0.1:1', '--auth', 'basicAuth=no-colon'], 'HTTP Basic takes <username>:<password>'],
    [['http://127.0.0.1:1', '--max-requests', '0'], '--max-requests must be a positive number'],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await conformance(args);
    expect(result.code, describeRun('conformance', result)).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
