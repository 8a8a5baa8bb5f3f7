/**
 * Tree-shaking of the generated validators: every module-level constant that
 * is a call is marked pure, the per-operation checks stand alone, and the
 * file-wide dispatchers delegate to them, so a bundler keeps only what an
 * entry imports. Bundled as an app would be (esbuild, --bundle --minify
 * --format=esm), from `generated/validators.ts`.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../../support/process.js';

async function bundled(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: join(repoRoot, 'generated'), loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

describe('generated validators bundle by what is imported', () => {
  it('one operation\'s response checks bundle to a small fraction of the whole module', async () => {
    const whole = await bundled("export * from './validators.js';");
    const one = await bundled("export { validateGetMessageResponses } from './validators.js';");
    expect(one.length).toBeLessThan(whole.length / 4);
    // Another operation's checks and the other schemas' checks are dropped.
    expect(whole).toContain('"is_imported_stub"');
    expect(one).not.toContain('"is_imported_stub"');
    expect(one).toContain('"display_recipient"');
  });

  it('one schema\'s Standard Schema keeps that schema\'s checks only', async () => {
    const one = await bundled("export { ReactionSchema } from './validators.js';");
    const whole = await bundled("export * from './validators.js';");
    expect(one.length).toBeLessThan(whole.length / 20);
    expect(one).toContain('"emoji_name"');
    expect(one).not.toContain('"display_recipient"');
  });
});
