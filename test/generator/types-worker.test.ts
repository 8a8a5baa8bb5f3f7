/**
 * The compiled `types` target runs openapi-typescript in a worker thread
 * (generator/targets/types/worker.ts) when the pipeline warmed one: the text
 * must be the one the transform gives in this thread, a transform that
 * throws must stop the run with its message, and without a warm worker the
 * transform runs here. The compiled modules are those of dist/, which the
 * tests' global set-up builds.
 */
import { join } from 'node:path';
import type { OpenAPI3 } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../generator/load/index.js';
import { declarations, type TransformOptions } from '../../generator/targets/types/transform.js';
import { repoRoot } from '../support/process.js';

type WorkerModule = typeof import('../../generator/targets/types/worker.js');
const compiled = (): Promise<WorkerModule> => import(join(repoRoot, 'dist/generator/targets/types/worker.js')) as Promise<WorkerModule>;

const OPTIONS: TransformOptions = { defaultNonNullable: false };

const messagePorts = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'MessagePort').length;

describe('declarations in a worker thread', () => {
  it('gives the text of the transform in this thread (our spec)', async () => {
    const { document } = await loadSpec('spec/openapi.yaml', repoRoot);
    const { warmDeclarations, declarationsOf } = await compiled();
    warmDeclarations();
    const ports = messagePorts();
    const pending = declarationsOf(structuredClone(document) as unknown as OpenAPI3, OPTIONS);
    // Waiting on the worker holds its port open.
    expect(messagePorts()).toBe(ports + 1);
    const inWorker = await pending;
    expect(inWorker).toBe(declarations(structuredClone(document) as unknown as OpenAPI3, OPTIONS));
    expect(inWorker).toContain('export interface components');
  });

  it("stops with the transform's own message when it throws", async () => {
    // A path item that is not an object makes openapi-typescript's transform throw.
    const broken = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { '200': { $ref: 7 } } } } } };
    let here = '';
    try {
      declarations(structuredClone(broken) as unknown as OpenAPI3, OPTIONS);
    } catch (error) {
      here = (error as Error).message;
    }
    expect(here).not.toBe('');
    const { warmDeclarations, declarationsOf } = await compiled();
    warmDeclarations();
    await expect(declarationsOf(broken as unknown as OpenAPI3, OPTIONS)).rejects.toThrow(here);
  });

  it('runs in this thread when no worker was warmed', async () => {
    const { declarationsOf } = await compiled();
    const document = { openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {}, components: { schemas: { A: { type: 'string' } } } };
    const ports = messagePorts();
    const pending = declarationsOf(document as unknown as OpenAPI3, OPTIONS);
    expect(messagePorts()).toBe(ports);
    expect(await pending).toContain('A: string;');
  });
});
