import { posix } from 'node:path';
import { banner } from '../banner.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { changelogView } from './changelog-page.js';
import { schemaLookup } from './fields.js';
import { renderHtml } from './html.js';
import { indexView } from './index-page.js';
import { CHANGELOG_FILE, INDEX_FILE, REDOC_FILE, REFERENCE_DIR, TYPES_FILE } from './links.js';
import { operationPageView, type NamedTypeView } from './operation-page.js';
import { DOCS_PEERS, loadMarkdownIt, requireDocsPeers } from './peers.js';
import { typesPageView } from './types-page.js';
import { buildRedocHtml, REDOC_SCRIPT, redocInputStamp, redocScript, subresourceIntegrity, withBanner, withLocalScript } from './redoc.js';
import { loadTemplates, type DocsTemplates } from './templates.js';
import { about } from './about.js';

/** The markdown pages: reference pages, changelog, index. */
export function renderMarkdown(ctx: TargetContext, templates: DocsTemplates = loadTemplates(ctx.templatesDir)): OutputFile[] {
  const { model } = ctx;
  const lookup = schemaLookup(model.schemas);
  const pageBanner = banner(model, ctx.command, 'html');
  const docsDir = posix.join(ctx.outDir, 'docs');
  const file = (path: string, contents: string): OutputFile => ({
    path: posix.join(docsDir, path),
    contents,
    ownership: 'generated',
  });
  const typeViews = new Map<string, NamedTypeView>();
  const sharedTypes = new Set<string>();
  const pages = model.operations.map((operation) =>
    file(
      posix.join(REFERENCE_DIR, `${operation.names.file}.md`),
      templates.operation(operationPageView(operation, { model, lookup, banner: pageBanner, typeViews, sharedTypes })),
    ),
  );
  return [
    ...pages,
    // Only documents with a page over PAGE_TYPE_LIMIT named types get the shared types page.
    ...(sharedTypes.size > 0 ? [file(TYPES_FILE, templates.types(typesPageView(model, lookup, sharedTypes, pageBanner, typeViews)))] : []),
    // The changelog lists feature levels: only documents that name them get one.
    ...(model.conventions.featureLevels ? [file(CHANGELOG_FILE, templates.changelog(changelogView(model, lookup, pageBanner)))] : []),
    file(INDEX_FILE, templates.index(indexView(model, pageBanner))),
  ];
}

/**
 * A static site: the markdown pages, each also as HTML, the stylesheet those
 * share, and the Redocly page with the script it loads, all in one folder.
 */
export const target: Target = {
  ...about,
  async generate(ctx) {
    const { model } = ctx;
    // Redocly reads OpenAPI, so this target uses the bundled document the model carries for such tools.
    if (model.openapi === undefined) throw new Error('the docs target needs the bundled document (model.openapi)');
    requireDocsPeers(ctx.root);
    const docsDir = posix.join(ctx.outDir, 'docs');
    const templates = loadTemplates(ctx.templatesDir);
    const markdown = renderMarkdown(ctx, templates);
    const html = renderHtml(await loadMarkdownIt(ctx.root), {
      pages: markdown,
      docsDir,
      templates,
      banner: banner(model, ctx.command, 'html'),
      cssBanner: banner(model, ctx.command, 'block'),
    });
    const script = redocScript(ctx.root, banner(model, ctx.command, 'line'));
    const integrity = subresourceIntegrity(script);
    const path = posix.join(docsDir, REDOC_FILE);
    const title = ctx.options.docs.title ?? `${model.title} ${model.version}`;
    const pageBanner = `${banner(model, ctx.command, 'html')}\n${redocInputStamp(ctx.root, model.openapi, title, integrity)}`;
    // Redocly takes seconds; its page depends only on the stamped inputs, so an up-to-date page is reused.
    const existing = ctx.readExisting(path);
    const contents = existing?.includes(pageBanner)
      ? existing
      : withBanner(withLocalScript(await buildRedocHtml(ctx.root, model.openapi, title), integrity), pageBanner);
    return [
      ...markdown,
      ...html,
      { path: posix.join(docsDir, REDOC_SCRIPT), contents: script, ownership: 'generated' },
      { path, contents, ownership: 'generated' },
    ];
  },
};
