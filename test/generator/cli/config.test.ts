import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinTemplatesDir } from '../../../generator/assets.js';
import { ConfigError, DEFAULT_TARGET_OPTIONS, flagsFromCwd, resolveGenerateConfig, type GenerateInput, type UserConfig } from '../../../generator/config.js';
import { findConfigFile, loadUserConfig } from '../../../generator/config-file.js';
import { generate } from '../../../generator/index.js';
import { effectiveTemplatesDir } from '../../../generator/templates.js';
import { tempProject } from '../../support/generator.js';

const KNOWN = ['types', 'validators', 'client', 'client-package', 'server', 'docs'];
const ROOT = '/project';

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'teamchat-config-'));
  scratch.push(dir);
  return dir;
}

describe('resolveGenerateConfig: flags over the config file over defaults', () => {
  const cases: [string, { flags: GenerateInput; file: UserConfig; want: Record<string, unknown> }][] = [
    ['defaults', { flags: {}, file: {}, want: { spec: 'spec/openapi.yaml', outDir: 'generated', targets: KNOWN, options: DEFAULT_TARGET_OPTIONS } }],
    [
      'config file values',
      {
        flags: {},
        file: { spec: 'api/openapi.yaml', out: 'src/api', targets: ['client', 'types'], clientPackage: { name: '@acme/client', version: '2.1.0' }, server: { handlers: 'src/handlers' }, docs: { title: 'Acme' } },
        want: {
          spec: 'api/openapi.yaml',
          outDir: 'src/api',
          targets: ['types', 'client'],
          options: { clientPackage: { name: '@acme/client', version: '2.1.0' }, server: { handlersDir: 'src/handlers' }, docs: { title: 'Acme' } },
        },
      },
    ],
    [
      'flags win',
      {
        flags: { spec: 'other.yaml', only: 'docs', clientPackageName: 'flag-name', docsTitle: 'Flag' },
        file: { spec: 'api/openapi.yaml', targets: ['client'], clientPackage: { name: 'file-name', version: '3.0.0' } },
        want: { spec: 'other.yaml', targets: ['docs'], options: { clientPackage: { name: 'flag-name', version: '3.0.0' }, server: { handlersDir: 'server/handlers' }, docs: { title: 'Flag' } } },
      },
    ],
  ];
  it('reads a spec outside the project (it is only read)', () => {
    expect(resolveGenerateConfig({}, ROOT, KNOWN, { spec: '../shared/openapi.yaml' }).spec).toBe('../shared/openapi.yaml');
  });
  it('takes path flags from the current directory', () => {
    const flags = flagsFromCwd({ spec: 'api.yaml', out: 'gen', templates: 't', handlers: 'h', only: 'types' }, '/project/sub');
    expect(flags).toEqual({ spec: '/project/sub/api.yaml', out: '/project/sub/gen', templates: '/project/sub/t', handlers: '/project/sub/h', only: 'types' });
    expect(resolveGenerateConfig(flags, ROOT, KNOWN, { out: 'ignored' })).toMatchObject({ spec: 'sub/api.yaml', outDir: 'sub/gen', options: { server: { handlersDir: 'sub/h' } } });
  });
  it.each(cases)('%s', (_name, { flags, file, want }) => {
    expect(resolveGenerateConfig(flags, ROOT, KNOWN, file)).toMatchObject(want);
  });

  const refusals: [string, { flags: GenerateInput; file: UserConfig; message: RegExp }][] = [
    ['unknown target in the config', { flags: {}, file: { targets: ['sdk'] }, message: /^targets: unknown target `sdk`/ }],
    ['unknown target in --only', { flags: { only: 'types,sdk' }, file: {}, message: /^--only: unknown target `sdk`/ }],
    ['output outside the project', { flags: {}, file: { out: '../elsewhere' }, message: /^out must name a path inside/ }],
    ['handlers outside the project', { flags: { handlers: '/elsewhere/handlers' }, file: {}, message: /^--handlers must name a path inside/ }],
    ['bad package name', { flags: {}, file: { clientPackage: { name: 'Not A Name' } }, message: /not a valid npm package name/ }],
    ['bad version', { flags: { clientPackageVersion: 'v1' }, file: {}, message: /not a semantic version/ }],
  ];
  it.each(refusals)('refuses %s', (_name, { flags, file, message }) => {
    expect(() => resolveGenerateConfig(flags, ROOT, KNOWN, file)).toThrow(ConfigError);
    expect(() => resolveGenerateConfig(flags, ROOT, KNOWN, file)).toThrow(message);
  });
});

describe('config files', () => {
  it('reads json, mjs and ts configs, and finds them from a subfolder', async () => {
    const want = { spec: 'api.yaml', clientPackage: { name: 'x-client' } };
    const sources: Record<string, string> = {
      'teamchat.config.json': JSON.stringify(want),
      'teamchat.config.mjs': `export default ${JSON.stringify(want)};`,
      // Type annotations, an interface and a relative import: compiled, not merely stripped of a few tokens.
      'teamchat.config.ts': [
        `import { spec } from './spec-name.mjs';`,
        `interface Shape { spec: string; clientPackage: { name: string } }`,
        `const config: Shape = { spec, clientPackage: { name: 'x-client' as string } };`,
        `export default config;`,
      ].join('\n'),
    };
    for (const [name, text] of Object.entries(sources)) {
      const dir = folder();
      writeFileSync(join(dir, name), text);
      writeFileSync(join(dir, 'spec-name.mjs'), `export const spec = 'api.yaml';`);
      mkdirSync(join(dir, 'sub'));
      const found = await loadUserConfig(undefined, join(dir, 'sub'));
      expect(found, name).toEqual({ file: join(dir, name), root: dir, config: want });
    }
  });

  it('stops at the project boundary (package.json) and refuses two configs side by side', () => {
    const outer = folder();
    writeFileSync(join(outer, 'teamchat.config.json'), '{}');
    mkdirSync(join(outer, 'inner'));
    writeFileSync(join(outer, 'inner', 'package.json'), '{}');
    expect(findConfigFile(join(outer, 'inner'))).toBeUndefined();
    writeFileSync(join(outer, 'teamchat.config.mjs'), 'export default {};');
    expect(() => findConfigFile(outer)).toThrow(/keep one/);
  });

  it('names the file and the key of a wrong config', async () => {
    const cases: [string, string, RegExp][] = [
      ['teamchat.config.json', '{"spec": 3}', /teamchat\.config\.json: spec must be a string/],
      ['teamchat.config.json', '{"output": "x"}', /teamchat\.config\.json: output must be one of the known options/],
      ['teamchat.config.json', '{"clientPackage": {"nam": "x"}}', /clientPackage\.nam must be one of name, version/],
      ['teamchat.config.json', '{ nope', /teamchat\.config\.json: .*JSON/],
      ['teamchat.config.mjs', 'export const spec = "x";', /export the config as default/],
      ['teamchat.config.ts', 'export default {', /teamchat\.config\.ts: .*expected/],
    ];
    for (const [name, text, message] of cases) {
      const dir = folder();
      writeFileSync(join(dir, name), text);
      const failure = await loadUserConfig(undefined, dir).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, text).toBeInstanceOf(ConfigError);
      expect((failure as Error).message, text).toMatch(message);
    }
  });
});

describe('template overrides', () => {
  it('replaces the built-in template of the same name, and only that one', async () => {
    const { root, dispose } = tempProject('basic');
    try {
      const plain = await generate({ root, targets: ['types', 'client', 'validators'] });
      expect(plain.targets.map((t) => t.name)).toEqual(['types', 'validators', 'client']);
      const before = { client: readFileSync(join(root, 'generated/client.ts'), 'utf8'), validators: readFileSync(join(root, 'generated/validators.ts'), 'utf8') };

      const builtin = readFileSync(join(builtinTemplatesDir, 'client/client.ts.hbs'), 'utf8');
      mkdirSync(join(root, 'my-templates/client'), { recursive: true });
      writeFileSync(join(root, 'my-templates/client/client.ts.hbs'), `${builtin}\n/** Client of {{title}} {{version}}, house style. */\n`);
      writeFileSync(join(root, 'teamchat.config.json'), JSON.stringify({ templates: 'my-templates', targets: ['types', 'client', 'validators'] }));
      const result = await generate({ root, config: true });

      const client = readFileSync(join(root, 'generated/client.ts'), 'utf8');
      expect(client.startsWith(before.client.trimEnd())).toBe(true);
      expect(client).toMatch(/\/\*\* Client of .+, house style\. \*\/\n$/);
      expect(readFileSync(join(root, 'generated/validators.ts'), 'utf8')).toBe(before.validators);
      // Only client.ts changed; the client's other files (connect, operations, checks, runtime) are as they were.
      const files = result.targets.find((t) => t.name === 'client')?.files ?? [];
      expect(files.filter((file) => file.status === 'written')).toEqual([{ path: 'generated/client.ts', status: 'written' }]);
      expect(files.map((file) => file.path)).toContain('generated/client/connect.ts');
      expect(files.filter((file) => file.status !== 'written').every((file) => file.status === 'unchanged')).toBe(true);
    } finally {
      dispose();
    }
  });

  it('refuses a file that replaces no built-in template', () => {
    const dir = folder();
    mkdirSync(join(dir, 'client'));
    writeFileSync(join(dir, 'client', 'clinet.ts.hbs'), '');
    expect(() => effectiveTemplatesDir(dir)).toThrow(/client\/clinet\.ts\.hbs .* replaces no built-in template/);
  });
});
