/**
 * The generated docs in a real browser, served by the real server's docs
 * routes. Nothing may leave the machine: loopback requests pass, every other
 * request is aborted and recorded, and the page must work without any.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDocs } from '../../server/http/docs.js';
import { repoRoot } from '../support/process.js';
import { OPERATION_COUNT, specOperations, type SpecOperation } from '../support/spec-operations.js';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = join(repoRoot, 'test/artifacts/docs.png');

let app: FastifyInstance;
let baseUrl: string;
let browser: Browser;
let operations: SpecOperation[];

/** A page whose only network is loopback. */
async function offlinePage(): Promise<{ page: Page; aborted: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(15_000);
  const aborted: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).hostname === '127.0.0.1') return route.continue();
    // Redoc's "powered by" logo is decorative; everything else must come from the server.
    if (route.request().resourceType() !== 'image') aborted.push(url);
    return route.abort();
  });
  return { page, aborted };
}

describe('generated docs in a browser', () => {
  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does)`).toBe(true);
    operations = await specOperations();
    app = Fastify({ logger: false });
    await registerDocs(app);
    baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
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
      const response = await page.goto(`${baseUrl}/docs/reference/get-message.md`, { waitUntil: 'load' });
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
});
