import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The installed `@redocly/cli` manifest: beside the generator's own
 * dependencies, else in the project's. It is an optional peer dependency
 * (docs/decisions/0008-package-and-dependencies.md), so its absence is a
 * clear error rather than a stack trace.
 */
function redoclyManifest(root: string): string {
  for (const from of [import.meta.url, join(root, 'package.json')]) {
    try {
      return createRequire(from).resolve('@redocly/cli/package.json');
    } catch {
      // not installed there
    }
  }
  throw new Error('the docs target builds index.html with @redocly/cli, which is not installed: `npm install --save-dev @redocly/cli`, or leave `docs` out of the targets');
}

/** The local `redocly` executable, found through the installed package so no shell or PATH lookup is involved. */
function redoclyBin(root: string): string {
  const manifestPath = redoclyManifest(root);
  const require = createRequire(manifestPath);
  const manifest = require(manifestPath) as { bin: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.redocly;
  if (bin === undefined) throw new Error('@redocly/cli declares no redocly executable');
  return join(dirname(manifestPath), bin);
}

/**
 * A comment naming a digest of everything the page is built from (document,
 * title, Redocly version, the integrity of the script beside it), so an
 * existing page with the same stamp is known to be up to date without
 * running Redocly again.
 */
export function redocInputStamp(root: string, document: Record<string, unknown>, title: string, scriptIntegrity: string): string {
  const { version } = JSON.parse(readFileSync(redoclyManifest(root), 'utf8')) as { version: string };
  const digest = createHash('sha256').update(JSON.stringify([document, title, version, REDOC_SCRIPT, scriptIntegrity])).digest('hex');
  return `<!-- redocly ${version}, input sha256 ${digest} -->`;
}

/**
 * Runs Redocly `build-docs` on the bundled document in a temporary folder
 * (also its working directory, so no stray `redocly.yaml` applies) and
 * returns the page. Telemetry and update checks are off so the run needs no
 * network. The page loads Redoc's script from Redocly's CDN but is
 * prerendered, so it reads without it.
 */
export async function buildRedocHtml(root: string, document: Record<string, unknown>, title: string): Promise<string> {
  const workDir = await mkdtemp(join(tmpdir(), 'teamchat-redoc-'));
  const specFile = join(workDir, 'openapi.json');
  const outFile = join(workDir, 'index.html');
  try {
    await writeFile(specFile, JSON.stringify(document));
    await run(
      process.execPath,
      [redoclyBin(root), 'build-docs', specFile, '--output', outFile, '--title', title, '--lint-config', 'off'],
      {
        cwd: workDir,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return await readFile(outFile, 'utf8');
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`redocly build-docs failed${stderr ? `:\n${stderr}` : ''}`, { cause: error });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Where the page loads Redoc's script from: beside it, instead of Redocly's CDN, so the docs folder is complete. */
export const REDOC_SCRIPT = 'redoc.standalone.js';
const CDN_SCRIPT = /https:\/\/cdn\.redocly\.com\/redoc\/[^"']+\/redoc\.standalone\.js/g;

/**
 * Redoc's script as the docs folder holds it: the file the installed
 * @redocly/cli ships (the same bytes as Redocly's CDN serves), after the
 * banner.
 */
export function redocScript(root: string, banner: string): string {
  return `${banner}\n${readFileSync(join(dirname(redoclyManifest(root)), 'lib', 'chunks', REDOC_SCRIPT), 'utf8')}`;
}

/** The `integrity` value of a script: its SHA-384 digest, as Redocly's page gives it. */
export function subresourceIntegrity(script: string): string {
  return `sha384-${createHash('sha384').update(script, 'utf8').digest('base64')}`;
}

/**
 * Points the page at `./redoc.standalone.js` and gives the tags that load it
 * that file's integrity (the banner makes it differ from the CDN's). A page
 * that no longer loads the script from the CDN is an error rather than a
 * folder that silently needs the network.
 */
export function withLocalScript(html: string, integrity: string): string {
  if (html.match(CDN_SCRIPT) === null) throw new Error(`redocly build-docs wrote a page that does not load ${REDOC_SCRIPT} from Redocly's CDN; the docs target cannot point it at its own copy`);
  const local = `./${REDOC_SCRIPT}`;
  return html
    .replace(CDN_SCRIPT, local)
    .replace(/<(?:link|script)\b[^>]*>/g, (tag) => (tag.includes(`"${local}"`) ? tag.replace(/\bintegrity="[^"]*"/, `integrity="${integrity}"`) : tag));
}

/** Puts the banner after the doctype (a comment before it is legal but unusual) and fixes line endings. */
export function withBanner(html: string, banner: string): string {
  const normalised = html.replace(/\r\n?/g, '\n');
  const doctype = /^<!DOCTYPE html>\n?/i.exec(normalised);
  const head = doctype ? doctype[0].replace(/\n?$/, '\n') : '';
  const rest = normalised.slice(doctype ? doctype[0].length : 0);
  return `${head}${banner}\n${rest.trimEnd()}\n`;
}
