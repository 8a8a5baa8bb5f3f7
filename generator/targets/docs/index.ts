import { isAbsolute, posix, resolve as resolvePath } from 'node:path';
import type { OutputFile, Target, TargetContext } from '../types.js';
import { changelogView } from './changelog-page.js';
import { schemaLookup } from './fields.js';
import { indexView } from './index-page.js';
import { CHANGELOG_FILE, INDEX_FILE, REDOC_FILE, REFERENCE_DIR } from './links.js';
import { banner } from './markdown.js';
import { operationPageView } from './operation-page.js';
import { buildRedocHtml, withBanner } from './redoc.js';
import { loadTemplates } from './templates.js';

/**
 * The docs target also needs the root spec file, for Redocly's HTML page
 * (the model does not carry the OpenAPI document). Until `TargetContext`
 * carries it, the conventional location is the default.
 */
type DocsContext = TargetContext & { specPath?: string };

const DEFAULT_SPEC_PATH = 'spec/openapi.yaml';

/** Markdown pages only: everything but the Redocly HTML, which needs the spec file. */
export function renderMarkdown(ctx: TargetContext): OutputFile[] {
  const { model } = ctx;
  const templates = loadTemplates(ctx.templatesDir);
  const lookup = schemaLookup(model.schemas);
  const pageBanner = banner(model.title, model.version, ctx.command);
  const docsDir = posix.join(ctx.outDir, 'docs');
  const file = (path: string, contents: string): OutputFile => ({
    path: posix.join(docsDir, path),
    contents,
    ownership: 'generated',
  });
  return [
    ...model.operations.map((operation) =>
      file(
        posix.join(REFERENCE_DIR, `${operation.names.file}.md`),
        templates.operation(operationPageView(operation, { model, lookup, banner: pageBanner })),
      ),
    ),
    file(CHANGELOG_FILE, templates.changelog(changelogView(model, lookup, pageBanner))),
    file(INDEX_FILE, templates.index(indexView(model, pageBanner))),
  ];
}

export const target: Target = {
  name: 'docs',
  description: 'Reference pages per operation, changelog and index (markdown), and the Redocly HTML page',
  async generate(ctx: DocsContext) {
    const specPath = ctx.specPath ?? DEFAULT_SPEC_PATH;
    const specFile = isAbsolute(specPath) ? specPath : resolvePath(ctx.root, specPath);
    const html = await buildRedocHtml(ctx.root, specFile, `${ctx.model.title} ${ctx.model.version}`);
    const redoc: OutputFile = {
      path: posix.join(ctx.outDir, 'docs', REDOC_FILE),
      contents: withBanner(html, banner(ctx.model.title, ctx.model.version, ctx.command)),
      ownership: 'generated',
    };
    return [...renderMarkdown(ctx), redoc];
  },
};
