/**
 * Serves the generated docs folder under /docs/ as a static host would: the
 * same files (the Redocly page and its script, the HTML and markdown pages,
 * the stylesheet), so what works here works wherever the folder is uploaded.
 */
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { packageRoot } from '../../package-root.js';

export const DOCS_DIR: string = join(packageRoot, 'generated', 'docs');

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
