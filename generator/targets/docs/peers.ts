/**
 * The optional peer packages the docs target loads
 * (docs/decisions/0008-package-and-dependencies.md): Redocly builds the
 * interactive page, markdown-it renders the HTML pages. Each is looked for
 * beside the generator, then in the project being generated.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type MarkdownIt from 'markdown-it';
import { importModule } from '../../esm.js';

export const DOCS_PEERS = ['@redocly/cli', 'markdown-it'] as const;

/** A file of the installed package `name` (its entry, or its manifest for packages without one), or undefined. */
function resolvePeer(name: string, root: string): string | undefined {
  for (const from of [import.meta.url, join(root, 'package.json')]) {
    const require = createRequire(from);
    for (const specifier of [name, `${name}/package.json`]) {
      try {
        return require.resolve(specifier);
      } catch {
        // not there, or not exported under that name
      }
    }
  }
  return undefined;
}

/** Stops the run, naming the install command, when a peer is missing. */
export function requireDocsPeers(root: string): void {
  const missing = DOCS_PEERS.filter((name) => resolvePeer(name, root) === undefined);
  if (missing.length === 0) return;
  throw new Error(
    `the docs target needs ${missing.join(' and ')}, not installed: \`npm install --save-dev ${missing.join(' ')}\`, or leave \`docs\` out of the targets`,
  );
}

/** The markdown-it constructor, loaded on first use (the generator's other targets never need it). */
export async function loadMarkdownIt(root: string): Promise<typeof MarkdownIt> {
  const entry = resolvePeer('markdown-it', root);
  if (entry === undefined) throw new Error('the docs target renders its HTML pages with markdown-it, which is not installed: `npm install --save-dev markdown-it`');
  const loaded = await importModule<{ default: typeof MarkdownIt }>(pathToFileURL(entry).href);
  return loaded.default;
}
