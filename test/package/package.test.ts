/**
 * The package as a user gets it: `npm pack`, the tarball installed into an
 * empty project (from the local npm cache where it can), and there `teamchat
 * init`, `generate` on the user's own spec, `tsc` over the output, `serve
 * --mock`, a template override, the programmatic API, our client from plain
 * JavaScript; then the generated client package packed, installed into
 * another empty folder and used from Node ESM and from TypeScript. The
 * packing and installing happen once, in beforeAll.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, run, runNode, type RunResult } from '../support/process.js';
import { TODO_SPEC } from './user-spec.js';

const scratch = mkdtempSync(join(tmpdir(), 'teamchat-package-'));
const app = join(scratch, 'app');
const consumer = join(scratch, 'consumer');
const INSTALL_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Record<'peerDependencies' | 'devDependencies', Record<string, string>>;

let tarball: string;
let tarballFiles: string[];
let mock: ChildProcess | undefined;
let mockUrl: string;
const steps: Record<string, RunResult> = {};

function ok(result: RunResult, what: string): RunResult {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}${result.timedOut ? ' (timed out)' : ''}\n${result.stdout}\n${result.stderr}`);
  return result;
}
const npm = async (cwd: string, args: string[]) => ok(await run('npm', args, { cwd, timeoutMs: 240_000 }), `npm ${args.join(' ')}`);
/** The installed `teamchat` command, as `npx teamchat` would find it. */
const teamchat = (args: string[], cwd = app) => run(join(app, 'node_modules/.bin/teamchat'), args, { cwd, timeoutMs: 120_000, env: { ...process.env, CI: '1' } });
const tsc = (cwd: string, project: string) => runNode(join(app, 'node_modules/typescript/bin/tsc'), ['-p', project], { cwd, timeoutMs: 120_000 });

beforeAll(async () => {
  // dist/ is current: vitest's global setup built it. prepack would only rebuild it.
  const packed = await npm(repoRoot, ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch]);
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(scratch, info!.filename);
  tarballFiles = info!.files.map((f) => f.path);

  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'todo-app', private: true, type: 'module' }, null, 2));
  // The mock's two optional peers, as the command's message asks, and Node's types for the server bindings; nothing else of the server.
  await npm(app, [
    'install',
    tarball,
    `fastify@${manifest.peerDependencies.fastify}`,
    `@fastify/multipart@${manifest.peerDependencies['@fastify/multipart']}`,
    `@types/node@${manifest.devDependencies['@types/node']}`,
    ...INSTALL_FLAGS,
  ]);

  steps.init = await teamchat(['init']);
  steps.starter = await teamchat(['generate']);
  // The user's own spec, config and one template override.
  writeFileSync(join(app, 'openapi.yaml'), TODO_SPEC);
  writeFileSync(
    join(app, 'teamchat.config.json'),
    JSON.stringify({
      spec: 'openapi.yaml',
      out: 'src/api',
      targets: ['types', 'validators', 'client', 'client-package', 'server'],
      templates: 'templates',
      clientPackage: { name: '@acme/todo-client', version: '1.2.3' },
      server: { handlers: 'src/handlers' },
    }),
  );
  mkdirSync(join(app, 'templates/client-package'), { recursive: true });
  const builtinReadme = readFileSync(join(app, 'node_modules/teamchat-api/templates/client-package/README.md.hbs'), 'utf8');
  writeFileSync(join(app, 'templates/client-package/README.md.hbs'), `${builtinReadme}\nMaintained by the Acme platform team.\n`);
  steps.generate = await teamchat(['generate']);
  steps.check = await teamchat(['generate', '--check']);
  // No config and no --only (a project of its own, so the config above is not found): every target but docs, whose peer is missing.
  mkdirSync(join(app, 'bare'));
  writeFileSync(join(app, 'bare/package.json'), '{}');
  steps.bare = await teamchat(['generate', '--spec', '../openapi.yaml', '--out', 'out', '--handlers', 'handlers'], join(app, 'bare'));
  steps.bareDocs = await teamchat(['generate', '--spec', '../openapi.yaml', '--out', 'out', '--only', 'docs'], join(app, 'bare'));
  steps.bareQuery = await teamchat(['generate', '--spec', '../openapi.yaml', '--out', 'out', '--only', 'query'], join(app, 'bare'));

  const started = await startMock();
  mock = started.child;
  mockUrl = started.url;

  ok(await run('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: join(app, 'src/api/client-package'), timeoutMs: 60_000 }), 'npm pack (client)');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await npm(consumer, ['install', join(scratch, 'acme-todo-client-1.2.3.tgz'), '--offline', '--no-audit', '--no-fund', '--loglevel=error']);
}, 600_000);

afterAll(() => {
  mock?.kill('SIGTERM');
  rmSync(scratch, { recursive: true, force: true });
});

/** `teamchat serve --mock` on a free port; resolves with the URL it prints. */
function startMock(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(app, 'node_modules/.bin/teamchat'), ['serve', '--mock', '--spec', 'openapi.yaml', '--host', '127.0.0.1', '--port', '0'], {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve --mock printed no URL in 60 s:\n${output}`)), 60_000);
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API: +(http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('exit', (code) => reject(new Error(`serve --mock exited ${code}:\n${output}`)));
  });
}

describe('the packed package', () => {
  it('ships compiled code, templates and runtime, and no tests, fixtures or TypeScript sources', () => {
    expect(tarballFiles).toContain('dist/generator/cli/main.js');
    expect(tarballFiles).toContain('dist/generated/client.d.ts');
    expect(tarballFiles).toContain('templates/client/client.ts.hbs');
    expect(tarballFiles).toContain('bin/teamchat.js');
    expect(tarballFiles.filter((f) => /^(test|bench|spec)\//.test(f) || /fixtures/.test(f))).toEqual([]);
    expect(tarballFiles.filter((f) => /^(generator|server)\/.*\.ts$/.test(f))).toEqual([]);
  });

  it('installs without the server-only dependencies or a TypeScript loader', () => {
    for (const name of ['@electric-sql/pglite', 'pg', '@tus/server', '@redocly/cli', 'tsx']) {
      expect(existsSync(join(app, 'node_modules', name)), name).toBe(false);
    }
  });

  it('init writes a config and a spec, which generate turns into code', () => {
    expect(ok(steps.init!, 'init').stdout).toContain('wrote teamchat.config.json and openapi.yaml');
    expect(ok(steps.starter!, 'generate (starter)').stdout).toMatch(/^client-package +[1-9]\d* written, 0 unchanged/m);
    expect(existsSync(join(app, 'generated/client-package/package.json'))).toBe(true);
  });

  it('without chosen targets, skips docs with a note when @redocly/cli is missing; named, docs fails with the install command', () => {
    const bare = ok(steps.bare!, 'generate without config');
    expect(bare.stdout).toContain('note: the docs target was skipped: it needs @redocly/cli');
    expect(bare.stdout).toMatch(/^server +[1-9]\d* written/m);
    expect(existsSync(join(app, 'bare/out/client.ts'))).toBe(true);
    expect(existsSync(join(app, 'bare/out/docs'))).toBe(false);
    expect(steps.bareDocs!.code).toBe(1);
    expect(steps.bareDocs!.stderr).toContain('npm install --save-dev @redocly/cli');
  });

  it('leaves the query target out unless named; named without @tanstack/query-core, it fails with the install command', () => {
    expect(steps.bare!.stdout).not.toMatch(/^query /m);
    expect(existsSync(join(app, 'bare/out/query.ts'))).toBe(false);
    expect(steps.bareQuery!.code).toBe(1);
    expect(steps.bareQuery!.stderr).toContain('the query target needs @tanstack/query-core, not installed: `npm install --save-dev @tanstack/query-core`');
    expect(steps.bareQuery!.stderr).not.toMatch(/^\s+at /m);
  });

  it("generates the user's spec where the config says, and --check finds it current", () => {
    ok(steps.generate!, 'generate');
    ok(steps.check!, 'generate --check');
    // Other modules the targets add (runtime helpers) may sit beside these.
    expect(readdirSync(join(app, 'src/api'))).toEqual(
      expect.arrayContaining(['client-package', 'client.ts', 'handlers.ts', 'mock-handlers.ts', 'server.ts', 'types.ts', 'validators.ts']),
    );
    expect(existsSync(join(app, 'generated/client.ts')), 'the starter output stays where it was').toBe(true);
    expect(readdirSync(join(app, 'src/handlers')).sort()).toEqual(['create-todo.ts', 'list-todos.ts']);
    expect(readFileSync(join(app, 'src/api/client.ts'), 'utf8')).toContain('listTodos');
  });

  it('type-checks the output with tsc', async () => {
    // The package's own API: its named types, as a nodenext project imports them.
    writeFileSync(
      join(app, 'src/own-types.ts'),
      `import type { Message, OwnUser } from 'teamchat-api/types';
export const topic = (message: Message): string => message.subject;
export const email = (user: OwnUser): string => user.email;
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022'], types: ['node'] },
        include: ['src/**/*.ts'],
      }),
    );
    ok(await tsc(app, 'tsconfig.json'), 'tsc');
  });

  it('serves the spec with --mock over HTTP', async () => {
    const auth = `Basic ${Buffer.from('me@example.com:key').toString('base64')}`;
    const list = await fetch(`${mockUrl}/todos?done=false`, { headers: { authorization: auth } });
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual({ result: 'success', msg: '', todos: [{ id: 7, title: 'Water the plants', done: false }] });
    const refused = await fetch(`${mockUrl}/todos?limit=0`, { headers: { authorization: auth } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('applies a template override', () => {
    const readme = readFileSync(join(app, 'src/api/client-package/README.md'), 'utf8');
    expect(readme).toContain('# @acme/todo-client');
    expect(readme.trimEnd().endsWith('Maintained by the Acme platform team.')).toBe(true);
  });

  it('offers generate() to build tools, with per-target results', async () => {
    const script = `import { generate } from 'teamchat-api';
const result = await generate({ config: true, check: true });
console.log(JSON.stringify(result.targets.map((t) => [t.name, t.files.length, t.files.every((f) => f.status === 'unchanged')])));`;
    writeFileSync(join(app, 'programmatic.mjs'), script);
    const result = ok(await runNode(join(app, 'programmatic.mjs'), [], { cwd: app, timeoutMs: 60_000 }), 'programmatic generate');
    const targets = JSON.parse(result.stdout) as [string, number, boolean][];
    expect(targets.map(([name]) => name)).toEqual(['types', 'validators', 'client', 'client-package', 'server']);
    expect(targets.every(([, count, unchanged]) => count > 0 && unchanged)).toBe(true);
  });

  it("exports our own API's client as JavaScript", async () => {
    writeFileSync(join(app, 'own-client.mjs'), `import { createClient } from 'teamchat-api/client';\nconsole.log(typeof createClient({ baseUrl: 'http://x', email: 'a', apiKey: 'b' }).getOwnUser);`);
    expect(ok(await runNode(join(app, 'own-client.mjs'), [], { cwd: app, timeoutMs: 30_000 }), 'own client').stdout.trim()).toBe('function');
  });
});

describe('the generated client package', () => {
  it('has zero dependencies, no side effects and the configured name', () => {
    const client = JSON.parse(readFileSync(join(consumer, 'node_modules/@acme/todo-client/package.json'), 'utf8')) as Record<string, unknown>;
    expect(client).toMatchObject({ name: '@acme/todo-client', version: '1.2.3', type: 'module', sideEffects: false });
    expect(client.dependencies).toBeUndefined();
    expect(readdirSync(join(consumer, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@acme']);
  });

  it('works from plain Node ESM against the mock', async () => {
    writeFileSync(
      join(consumer, 'use.mjs'),
      `import { createClient, isApiError } from '@acme/todo-client';
const client = createClient({ baseUrl: process.argv[2], email: 'me@example.com', apiKey: 'key', validateResponses: true });
const { todos } = await client.listTodos({ done: false });
const { todo } = await client.createTodo({ title: 'Buy bread' });
let refused;
try { await client.listTodos({ limit: 0 }); } catch (error) { refused = isApiError(error, 'BAD_REQUEST') ? error.code : String(error); }
console.log(JSON.stringify({ todos, todo, refused }));`,
    );
    const origin = mockUrl.replace(/\/v2$/, '');
    const result = ok(await runNode(join(consumer, 'use.mjs'), [origin], { cwd: consumer, timeoutMs: 30_000 }), 'client from Node ESM');
    const out = JSON.parse(result.stdout) as { todos: unknown[]; todo: unknown; refused: string };
    expect(out.todos).toEqual([{ id: 7, title: 'Water the plants', done: false }]);
    expect(out.todo).toEqual({ id: 8, title: 'Buy bread', done: false });
    // Refused locally or by the server, the caller sees the API's error code.
    expect(out.refused).toBe('BAD_REQUEST');
  });

  it.each(['nodenext', 'bundler'])('type-checks from TypeScript with moduleResolution %s', async (resolution) => {
    const dir = join(consumer, `ts-${resolution}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'use.ts'),
      `import { createClient, isApiError } from '@acme/todo-client';
import type { Error_, ListTodosResponse, Todo } from '@acme/todo-client/types';
const client = createClient({ baseUrl: 'http://127.0.0.1:9991', email: 'me@example.com', apiKey: 'key' });
export async function titles(): Promise<string[]> {
  const body: ListTodosResponse = await client.listTodos({ done: true, limit: 5 });
  return body.todos.map((todo: Todo) => todo.title);
}
export const first: Todo = { id: 1, title: 'Water the plants', done: false };
export const message = (error: Error_): string => error.msg;
// @ts-expect-error done is a boolean
export const wrong: Todo = { id: 2, title: 'x', done: 'no' };
export function code(error: unknown): string | undefined {
  return isApiError(error) ? error.code : undefined;
}
// @ts-expect-error: limit is an integer, not a string
void client.listTodos({ limit: 'five' });
`,
    );
    const module = resolution === 'nodenext' ? 'NodeNext' : 'ESNext';
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module, moduleResolution: resolution, strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] },
        files: ['use.ts'],
      }),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    ok(await tsc(dir, 'tsconfig.json'), `tsc (${resolution})`);
  });
});
