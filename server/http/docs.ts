/**
 * Serves the generated docs folder under /docs/ as a static host would: the
 * same files (the Redocly page and its script, the HTML and markdown pages,
 * the stylesheet), so what works here works wherever the folder is uploaded.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** The package root: the nearest folder above this module with a package.json (compiled, this module lives under dist/). */
function packageRoot(): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`cannot find the package folder above ${start}`);
  }
}

export const DOCS_DIR: string = join(packageRoot(), 'generated', 'docs');

export async function registerDocs(app: FastifyInstance, docsDir: string = DOCS_DIR): Promise<void> {
  // The folder's own URL ends with a slash, so the pages' relative links resolve inside it.
  app.get('/docs', (_request, reply) => reply.redirect('/docs/', 301));
  await app.register(fastifyStatic, {
    root: docsDir,
    prefix: '/docs/',
    // A folder without its slash (`/docs/reference`) redirects to it; its index.html answers.
    redirect: true,
    index: ['index.html'],
    decorateReply: false,
  });
}
