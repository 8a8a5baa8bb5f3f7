import { posix } from 'node:path';
import { banner } from '../banner.js';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { changelogView } from './changelog-page.js';
import { schemaLookup } from './fields.js';
import { indexView } from './index-page.js';
import { CHANGELOG_FILE, INDEX_FILE, REDOC_FILE, REFERENCE_DIR, TYPES_FILE } from './links.js';
import { operationPageView, type NamedTypeView } from './operation-page.js';
import { typesPageView } from './types-page.js';
import { buildRedocHtml, redocInputStamp, withBanner, withLocalScript } from './redoc.js';
import { loadTemplates } from './templates.js';

/** The markdown pages: everything but the Redocly HTML. */
export function renderMarkdown(ctx: TargetContext): OutputFile[] {
  const { model } = ctx;
  const templates = loadTemplates(ctx.templatesDir);
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

export const target: Target = {
  name: 'docs',
  description: 'Reference pages per operation, changelog and index (markdown), and the Redocly HTML page',
  peers: ['@redocly/cli'],
  async generate(ctx) {
    const { model } = ctx;
    // Redocly reads OpenAPI, so this target uses the bundled document the model carries for such tools.
    if (model.openapi === undefined) throw new Error('the docs target needs the bundled document (model.openapi)');
    const path = posix.join(ctx.outDir, 'docs', REDOC_FILE);
    const title = ctx.options.docs.title ?? `${model.title} ${model.version}`;
    const pageBanner = `${banner(model, ctx.command, 'html')}\n${redocInputStamp(ctx.root, model.openapi, title)}`;
    // Redocly takes seconds; its page depends only on the stamped inputs, so an up-to-date page is reused.
    const existing = ctx.readExisting(path);
    const contents = existing?.includes(pageBanner)
      ? existing
      : withBanner(withLocalScript(await buildRedocHtml(ctx.root, model.openapi, title)), pageBanner);
    const redoc: OutputFile = { path, contents, ownership: 'generated' };
    return [...renderMarkdown(ctx), redoc];
  },
};
