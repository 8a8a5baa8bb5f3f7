/**
 * `/docs/` serves generated/docs/ as a static host would: the same bytes for
 * every file, a folder's index.html, the folder URLs redirected to their
 * trailing slash (relative links resolve inside them), nothing outside it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_DIR, registerDocs } from '../../server/http/docs.js';
import { repoRoot } from '../support/process.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({ logger: false });
  await registerDocs(app);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

describe('the docs routes', () => {
  it('find the docs folder from the package root', () => {
    expect(DOCS_DIR).toBe(join(repoRoot, 'generated/docs'));
  });

  const files: [string, { url: string; file: string; type: string }][] = [
    ['the Redocly page', { url: '/docs/', file: 'index.html', type: 'text/html' }],
    ['its script', { url: '/docs/redoc.standalone.js', file: 'redoc.standalone.js', type: 'javascript' }],
    ['the stylesheet', { url: '/docs/style.css', file: 'style.css', type: 'text/css' }],
    ['the reference index', { url: '/docs/reference/', file: 'reference/index.html', type: 'text/html' }],
    ['an operation page', { url: '/docs/reference/get-message.html', file: 'reference/get-message.html', type: 'text/html' }],
    ['its markdown', { url: '/docs/reference/get-message.md', file: 'reference/get-message.md', type: 'text/markdown' }],
    ['the changelog', { url: '/docs/changelog.html', file: 'changelog.html', type: 'text/html' }],
  ];
  it.each(files)('serve %s as the file it is', async (_, { url, file, type }) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain(type);
    expect(response.body).toBe(readFileSync(join(repoRoot, 'generated/docs', file), 'utf8'));
  });

  it.each([
    ['/docs', '/docs/'],
    ['/docs/reference', '/docs/reference/'],
  ])('redirect %s to %s', async (url, location) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe(location);
  });

  it.each(['/docs/no-such-page.html', '/docs/../package.json', '/docs/%2e%2e/package.json'])('answer 404 for %s', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('"name": "teamchat-api"');
  });
});
