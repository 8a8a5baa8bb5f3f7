/**
 * The generated docs in a real browser, served by the real server's docs
 * routes and by a plain static file server, as an upload of the folder would
 * be. Nothing may leave the machine: loopback requests pass, every other
 * request is aborted and recorded, and the page must work without any.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, sep } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocs } from '../../server/http/docs.js';
import { adviceLine, chromiumPath } from '../support/chromium.js';
import { repoRoot } from '../support/process.js';
import { OPERATION_COUNT, specOperations, type SpecOperation } from '../support/spec-operations.js';

const CHROMIUM = chromiumPath();
const SCREENSHOT = join(repoRoot, 'test/artifacts/docs.png');
const DOCS_DIR = join(repoRoot, 'generated/docs');

let app: FastifyInstance;
let baseUrl: string;
let staticServer: Server;
let staticUrl: string;
let browser: Browser;
let operations: SpecOperation[];

interface WatchedPage {
  page: Page;
  /** Requests for anything off the machine (aborted). */
  aborted: string[];
  /** Requests that failed or were answered with an error status. */
  failed: string[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
}

/** A page whose only network is loopback, watched for failed requests and errors. */
async function offlinePage(): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  const aborted: string[] = [];
  const failed: string[] = [];
  const errors: string[] = [];
  const offMachineImages = new Set<string>();
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).hostname === '127.0.0.1') return route.continue();
    // Redoc's "powered by" logo is decorative; everything else must come from the server.
    if (route.request().resourceType() !== 'image') aborted.push(url);
    else offMachineImages.add(url);
    return route.abort();
  });
  page.on('requestfailed', (request) => {
    if (!offMachineImages.has(request.url())) failed.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  page.on('console', (message) => {
    // Chromium reports the aborted decorative image as a console error naming no URL of ours.
    if (message.type() === 'error' && !offMachineImages.has(message.location().url)) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, aborted, failed, errors };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** The folder as a plain static host serves it: files by path, a folder's index.html, 404 otherwise. */
function serveFolder(root: string): Server {
  return createServer((request, response) => {
    const path = normalize(join(root, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    const file = path.startsWith(root + sep) || path === root ? (existsSync(path) && statSync(path).isDirectory() ? join(path, 'index.html') : path) : '';
    if (file === '' || !existsSync(file)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
}

describe('generated docs in a browser', () => {
  beforeAll(async () => {
    expect(existsSync(CHROMIUM), adviceLine(CHROMIUM)).toBe(true);
    operations = await specOperations();
    app = Fastify({ logger: false });
    await registerDocs(app);
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    staticServer = serveFolder(DOCS_DIR);
    await new Promise<void>((resolve) => staticServer.listen(0, '127.0.0.1', resolve));
    staticUrl = `http://127.0.0.1:${(staticServer.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => (staticServer ? staticServer.close(resolve) : resolve(undefined)));
  });

  it('loads Redoc from the server itself, with no request leaving the machine', async () => {
    const { page, aborted } = await offlinePage();
    try {
      const scripts: string[] = [];
      page.on('requestfinished', (request) => {
        if (request.url().endsWith('/redoc.standalone.js')) scripts.push(request.url());
      });
      await page.goto(`${baseUrl}/docs/`, { waitUntil: 'load' });
      await page.locator('.menu-content').waitFor();
      const text = await page.locator('body').innerText();
      expect(text).toContain('Team Chat API (1.0.0)');
      expect(text).toContain('Wire format');
      expect(scripts).toContain(`${baseUrl}/docs/redoc.standalone.js`);
      expect(aborted, 'the page asked for something off the machine').toEqual([]);
    } finally {
      await page.close();
    }
  });

  it(`with Redoc running, all ${OPERATION_COUNT} operations appear by operation id and summary`, async () => {
    const { page, aborted } = await offlinePage();
    try {
      await page.goto(`${baseUrl}/docs/`, { waitUntil: 'load' });
      const shown = new Map<string, string>();
      // Redoc lists one tag's operations at a time, on the tag's in-page route (#/<tag>),
      // which exists only once the script has hydrated the page.
      for (const tag of new Set(operations.map((operation) => operation.tags[0]!))) {
        await page.goto(`${baseUrl}/docs/#/${tag}`);
        for (const operation of operations.filter((o) => o.tags[0] === tag)) {
          const link = page.locator(`.menu-content a[href="#/${tag}/${operation.operationId}"]`);
          await link.waitFor({ timeout: 10_000 }).catch(() => undefined);
          if ((await link.count()) > 0) shown.set(operation.operationId, await link.innerText());
        }
      }
      // Back on the overview, hydrated: the picture a reader gets first.
      await page.goto(`${baseUrl}/docs/#/`);
      await page.locator('.menu-content [data-active="true"]', { hasText: 'Team Chat API' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 0));
      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(operations).toHaveLength(OPERATION_COUNT);
      for (const operation of operations) {
        expect(shown.get(operation.operationId), `${operation.operationId} is not in the docs navigation`).toBeDefined();
        expect(shown.get(operation.operationId), `${operation.operationId}'s navigation entry`).toContain(operation.summary);
        expect(shown.get(operation.operationId), `${operation.operationId}'s navigation entry`).toContain(operation.method.toUpperCase());
      }
      expect(shown.size).toBe(OPERATION_COUNT);
      expect(aborted).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it('renders a reference page’s parameters as an HTML table', async () => {
    const source = readFileSync(join(repoRoot, 'generated/docs/reference/get-message.md'), 'utf8');
    const section = source.slice(source.indexOf('## Parameters'), source.indexOf('## Response'));
    const wantHeader = section.split('\n').find((line) => line.startsWith('| Name'))!.split('|').slice(1, -1).map((cell) => cell.trim());
    const wantNames = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    expect(wantNames.length, 'get-message.md lists no parameters').toBeGreaterThan(0);

    const { page } = await offlinePage();
    try {
      const response = await page.goto(`${baseUrl}/docs/reference/get-message.html`, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-type']).toContain('text/html');
      // The first table after the "Parameters" heading.
      const table = page.locator('xpath=//h2[normalize-space()="Parameters"]/following-sibling::table[1]');
      await expect(table.count(), 'no <table> follows the Parameters heading').resolves.toBe(1);
      expect(await table.locator('thead th').allInnerTexts()).toEqual(wantHeader);
      expect(await table.locator('tbody tr td:first-child code').allInnerTexts()).toEqual(wantNames);
      const box = await table.boundingBox();
      expect(box?.width ?? 0, 'the parameters table is not laid out').toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  });

  it('serves the markdown beside each HTML page', async () => {
    const response = await fetch(`${baseUrl}/docs/reference/get-message.md`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(readFileSync(join(DOCS_DIR, 'reference/get-message.md'), 'utf8'));
  });

  describe.each([
    ['the reference server', () => `${baseUrl}/docs/`],
    ['a plain static server', () => `${staticUrl}/`],
  ])('the folder from %s', (_, root) => {
    it('renders Redoc from index.html with every request answered and no console error', async () => {
      const watched = await offlinePage();
      try {
        await watched.page.goto(root(), { waitUntil: 'load' });
        await watched.page.locator('.menu-content').waitFor();
        // Hydrated: Redoc's script answers its in-page routes.
        await watched.page.goto(`${root()}#/messages`);
        await watched.page.locator('.menu-content a[href="#/messages/get-message"]').waitFor();
        expect(await watched.page.locator('body').innerText()).toContain('Team Chat API (1.0.0)');
        expect(watched.aborted, 'the page asked for something off the machine').toEqual([]);
        expect(watched.failed).toEqual([]);
        expect(watched.errors).toEqual([]);
      } finally {
        await watched.page.close();
      }
    }, 60_000);

    it('shows an operation page, styled, whose links lead to the other pages', async () => {
      const watched = await offlinePage();
      try {
        const response = await watched.page.goto(`${root()}reference/get-message.html`, { waitUntil: 'load' });
        expect(response?.status()).toBe(200);
        await expect(watched.page.locator('h1').innerText()).resolves.toBe('Fetch a single message');
        await expect(watched.page.title()).resolves.toBe('Fetch a single message');
        // The shared stylesheet applies: tables collapse their borders.
        const collapse = await watched.page.locator('table').first().evaluate((table) => getComputedStyle(table).borderCollapse);
        expect(collapse).toBe('collapse');
        await watched.page.locator('a', { hasText: /^changelog$/ }).click();
        await watched.page.waitForURL(`${root()}changelog.html`);
        await expect(watched.page.locator('h1').innerText()).resolves.toBe('Team Chat API changelog');
        await watched.page.locator('a', { hasText: 'Fetch a single message' }).first().click();
        await watched.page.waitForURL(`${root()}reference/get-message.html`);
        await watched.page.locator('a', { hasText: /^index$/ }).click();
        await watched.page.waitForURL(`${root()}reference/index.html`);
        await watched.page.locator('a', { hasText: 'Interactive reference' }).click();
        await watched.page.waitForURL(`${root()}index.html`);
        await watched.page.locator('.menu-content').waitFor();
        expect(watched.aborted).toEqual([]);
        expect(watched.failed).toEqual([]);
        expect(watched.errors).toEqual([]);
      } finally {
        await watched.page.close();
      }
    }, 60_000);
  });
});
