/**
 * A client generated without the validators target (`--only types,client`
 * in a fresh folder) has no response checks to import: no
 * `client/checks/` modules, operations without `checks`, and a `connect`
 * that refuses `validateResponses`. It must still type-check on its own.
 * Beside an earlier run's `validators.ts`, `--only client` keeps the checks.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../generator/cli/pipeline.js';
import { targetNames } from '../../../../generator/targets/index.js';
import { config, tempProject } from '../../../support/generator.js';
import { typeCheck } from '../../../support/type-check.js';

const project = tempProject('basic');
afterAll(() => project.dispose());
const out = join(project.root, 'generated');
const run = (only: string) => generate(config(project.root, { only }, [...targetNames]));

describe('the client without validators', () => {
  it('writes no checks modules, marks the connection, and type-checks', async () => {
    await run('types,client');
    expect(existsSync(join(out, 'validators.ts'))).toBe(false);
    expect(existsSync(join(out, 'client/checks'))).toBe(false);
    const operations = readdirSync(join(out, 'client/operations'));
    expect(operations.length).toBeGreaterThan(0);
    for (const file of operations) expect(readFileSync(join(out, 'client/operations', file), 'utf8')).not.toContain('checks');
    expect(readFileSync(join(out, 'client/connect.ts'), 'utf8')).toContain('responseChecks: false');
    expect(typeCheck([join(out, 'client.ts')], {}, project.root)).toEqual([]);
  });

  it('refuses validateResponses when connecting, and connects without it', async () => {
    const client = (await import(join(out, 'client.ts'))) as {
      connect(options: { baseUrl: string; validateResponses?: boolean | 'strict' }): unknown;
    };
    expect(() => client.connect({ baseUrl: 'http://127.0.0.1:1', validateResponses: 'strict' })).toThrow(
      'validateResponses: this client was generated without the validators target',
    );
    expect(client.connect({ baseUrl: 'http://127.0.0.1:1', validateResponses: false })).toMatchObject({ root: 'http://127.0.0.1:1' });
  });

  it('keeps the checks when validators run too, or an earlier run left validators.ts', async () => {
    await run('types,client,validators');
    const checks = readdirSync(join(out, 'client/checks'));
    expect(checks.length).toBe(readdirSync(join(out, 'client/operations')).length);
    expect(readFileSync(join(out, 'client/connect.ts'), 'utf8')).not.toContain('responseChecks');

    await run('client');
    expect(readdirSync(join(out, 'client/checks'))).toEqual(checks);
    expect(typeCheck([join(out, 'client.ts')], {}, project.root)).toEqual([]);
  });
});
