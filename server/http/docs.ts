/**
 * Serves generated/docs under /docs: the Redocly page at /docs/, and every
 * markdown page (index, changelog, per-operation reference) rendered to HTML
 * at its own .md path, so the links between pages work unchanged.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import MarkdownIt from 'markdown-it';
import { packageRoot } from '../../generator/assets.js';
import { REDOC_SCRIPT, redocScriptPath } from '../../generator/targets/docs/redoc.js';

// From the package root, not this module: compiled, this module lives under dist/.
const DOCS_DIR = join(packageRoot, 'generated', 'docs');
const PAGE_NAME = /^[a-z0-9][a-z0-9-]*\.md$/;

const markdown = new MarkdownIt({ html: true, linkify: false });

export async function registerDocs(app: FastifyInstance, docsDir: string = DOCS_DIR): Promise<void> {
  app.get('/docs', (_request, reply) => reply.redirect('/docs/'));
  app.get('/docs/', (_request, reply) => sendFile(reply, join(docsDir, 'index.html'), 'text/html; charset=utf-8'));
  // The Redocly page loads its script from beside it; the installed package has it.
  const script = redocScriptPath(packageRoot);
  app.get(`/docs/${REDOC_SCRIPT}`, (_request, reply) => sendFile(reply, script, 'text/javascript; charset=utf-8'));
  app.get<{ Params: { page: string } }>('/docs/:page', (request, reply) => sendMarkdown(reply, docsDir, request.params.page));
  app.get<{ Params: { page: string } }>('/docs/reference/:page', (request, reply) =>
    sendMarkdown(reply, join(docsDir, 'reference'), request.params.page),
  );
}

async function sendMarkdown(reply: FastifyReply, dir: string, page: string): Promise<FastifyReply> {
  if (!PAGE_NAME.test(page)) return notFound(reply);
  let source: string;
  try {
    source = await readFile(join(dir, page), 'utf8');
  } catch {
    return notFound(reply);
  }
  const title = /^# (.+)$/m.exec(source)?.[1] ?? page;
  const body = markdown.render(source);
  return reply.type('text/html; charset=utf-8').send(htmlPage(title, body));
}

async function sendFile(reply: FastifyReply, path: string, type: string): Promise<FastifyReply> {
  try {
    return reply.type(type).send(await readFile(path));
  } catch {
    return reply.code(404).type('text/plain; charset=utf-8').send('The docs have not been generated: run `npm run generate`.\n');
  }
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).type('text/plain; charset=utf-8').send('No such page.\n');
}

function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
code, pre { font-family: ui-monospace, monospace; font-size: 0.9em; }
pre { background: #f6f8fa; padding: 0.75rem; overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.5rem; vertical-align: top; text-align: left; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
