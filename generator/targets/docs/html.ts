/**
 * The HTML pages: each markdown page rendered with markdown-it at generation
 * time, so the docs folder works from any static host. Relative links are
 * rewritten for the HTML page's place: a link to a markdown page becomes a
 * link to that page's HTML, anything else keeps pointing at the same file.
 */
import { posix } from 'node:path';
import type MarkdownIt from 'markdown-it';
import type { OutputFile } from '../types.js';
import { htmlPathOf, STYLESHEET_FILE } from './links.js';
import type { DocsTemplates } from './templates.js';

/** What `templates/docs/page.html.hbs` receives. */
export interface HtmlPageView {
  banner: string;
  /** Plain text, HTML-escaped. */
  title: string;
  /** The shared stylesheet, relative to the page. */
  stylesheet: string;
  /** The rendered markdown. */
  body: string;
}

/** What `templates/docs/style.css.hbs` receives. */
export interface StylesheetView {
  banner: string;
}

export interface HtmlInput {
  /** The markdown pages, paths under `docsDir`. */
  pages: readonly OutputFile[];
  docsDir: string;
  templates: DocsTemplates;
  /** The banner the markdown pages start with (dropped from the body) and the HTML pages carry. */
  banner: string;
  cssBanner: string;
}

type Markdown = InstanceType<typeof MarkdownIt>;

/** One HTML page per markdown page, and the stylesheet they share. */
export function renderHtml(MarkdownItClass: typeof MarkdownIt, input: HtmlInput): OutputFile[] {
  const { docsDir, templates } = input;
  // The page being rendered decides where its links point.
  let link: (href: string) => string = (href) => href;
  const markdown = rewritingLinks(new MarkdownItClass({ html: true, linkify: false }), (href) => link(href));
  const sources = new Set(input.pages.map((page) => posix.relative(docsDir, page.path)));
  const file = (path: string, contents: string): OutputFile => ({ path: posix.join(docsDir, path), contents, ownership: 'generated' });
  const pages = input.pages.map((page) => {
    const source = posix.relative(docsDir, page.path);
    const target = htmlPathOf(source);
    link = (href) => relink(href, source, target, sources);
    const text = page.contents.startsWith(input.banner) ? page.contents.slice(input.banner.length) : page.contents;
    const tokens = markdown.parse(text, {});
    return file(
      target,
      templates.page({
        banner: input.banner,
        title: escapeHtml(firstHeading(tokens) ?? posix.basename(source, '.md')),
        stylesheet: posix.relative(posix.dirname(target), STYLESHEET_FILE),
        body: markdown.renderer.render(tokens, markdown.options, {}).trimEnd(),
      }),
    );
  });
  return [...pages, file(STYLESHEET_FILE, templates.stylesheet({ banner: input.cssBanner }))];
}

/** Sends every link's `href` and image's `src` through `link`. */
function rewritingLinks(markdown: Markdown, link: (href: string) => string): Markdown {
  const rules = markdown.renderer.rules;
  const attributes = { link_open: 'href', image: 'src' } as const;
  for (const rule of ['link_open', 'image'] as const) {
    const attribute: string = attributes[rule];
    const original = rules[rule];
    rules[rule] = (tokens, index, options, env, self) => {
      const token = tokens[index]!;
      const value = token.attrGet(attribute);
      if (value !== null) token.attrSet(attribute, link(String(value)));
      return original ? original(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
    };
  }
  return markdown;
}

/**
 * A link of the markdown page `source` as the HTML page `target` needs it
 * (both relative to the docs folder). Absolute URLs, root-relative paths and
 * in-page anchors are left alone.
 */
export function relink(href: string, source: string, target: string, markdownPages: ReadonlySet<string>): string {
  if (href === '' || href.startsWith('#') || href.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(href)) return href;
  const split = /^([^?#]*)(.*)$/.exec(href)!;
  const path = split[1]!;
  const rest = split[2]!;
  if (path === '') return href;
  const resolved = posix.normalize(posix.join(posix.dirname(source), path));
  const destination = markdownPages.has(resolved) ? htmlPathOf(resolved) : resolved;
  const relative = posix.relative(posix.dirname(target), destination) || '.';
  return `${relative}${path.endsWith('/') && !relative.endsWith('/') ? '/' : ''}${rest}`;
}

/** The text of the page's first level-one heading. */
function firstHeading(tokens: ReturnType<Markdown['parse']>): string | undefined {
  const open = tokens.findIndex((token) => token.type === 'heading_open' && token.tag === 'h1');
  const inline = open === -1 ? undefined : tokens[open + 1];
  if (inline?.children == null) return undefined;
  return inline.children
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
