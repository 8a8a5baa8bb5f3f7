/**
 * Markdown to HTML for message content and descriptions. Raw HTML from users
 * is escaped, never passed through. The organization's linkifiers turn
 * matching text (outside existing links and code) into links; they apply in
 * their given order, an earlier one winning where two overlap.
 */
import MarkdownIt from 'markdown-it';
import { parse as parseTemplate } from 'uri-template';
import type { LinkifierRow } from '../store/rows.js';

export interface RenderOptions {
  linkifiers: readonly Pick<LinkifierRow, 'pattern' | 'url_template'>[];
}

type Renderer = InstanceType<typeof MarkdownIt>;
type StateCore = Parameters<Parameters<Renderer['core']['ruler']['push']>[1]>[0];
type Token = StateCore['tokens'][number];

interface CompiledLinkifier {
  regex: RegExp;
  expand(groups: Record<string, string>): string;
}

interface Match {
  start: number;
  end: number;
  text: string;
  url: string;
}

// A linkifier match must start after whitespace, an opening bracket or
// quote, or the start of the text, and must not run into a word character.
const BEFORE = `(?<![^\\s'"(,:<])`;
const AFTER = '(?!\\w)';

/** Linkifier patterns use Python's named-group syntax; JavaScript spells it differently. */
function toJsPattern(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
}

/** Compiles the usable linkifiers; a pattern or template that does not compile is skipped, not fatal. */
function compileAll(linkifiers: RenderOptions['linkifiers']): CompiledLinkifier[] {
  const compiled: CompiledLinkifier[] = [];
  for (const linkifier of linkifiers) {
    try {
      const regex = new RegExp(`${BEFORE}(?:${toJsPattern(linkifier.pattern)})${AFTER}`, 'gu');
      const template = parseTemplate(linkifier.url_template);
      compiled.push({ regex, expand: (groups) => template.expand(groups) });
    } catch {
      continue;
    }
  }
  return compiled;
}

/** Non-overlapping matches of the linkifiers in `text`, in text order; earlier linkifiers take precedence. */
function linkifierMatches(text: string, linkifiers: CompiledLinkifier[]): Match[] {
  const taken: Match[] = [];
  for (const linkifier of linkifiers) {
    for (const found of text.matchAll(linkifier.regex)) {
      if (found[0] === '') continue;
      const start = found.index;
      const end = start + found[0].length;
      if (taken.some((match) => start < match.end && match.start < end)) continue;
      const groups = Object.fromEntries(Object.entries(found.groups ?? {}).filter(([, value]) => value !== undefined)) as Record<string, string>;
      taken.push({ start, end, text: found[0], url: linkifier.expand(groups) });
    }
  }
  return taken.sort((a, b) => a.start - b.start);
}

function linkifyTextTokens(state: StateCore, linkifiers: CompiledLinkifier[]): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children: Token[] = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') linkDepth++;
      if (token.type === 'link_close') linkDepth--;
      const matches = token.type === 'text' && linkDepth === 0 ? linkifierMatches(token.content, linkifiers) : [];
      if (matches.length === 0) {
        children.push(token);
        continue;
      }
      let position = 0;
      const text = (content: string) => {
        const piece = new state.Token('text', '', 0);
        piece.content = content;
        children.push(piece);
      };
      for (const match of matches) {
        if (match.start > position) text(token.content.slice(position, match.start));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [['href', match.url]];
        children.push(open);
        text(match.text);
        children.push(new state.Token('link_close', 'a', -1));
        position = match.end;
      }
      if (position < token.content.length) text(token.content.slice(position));
    }
    block.children = children;
  }
}

function renderer(linkifiers: CompiledLinkifier[]): Renderer {
  const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
  md.core.ruler.push('linkifiers', (state) => linkifyTextTokens(state, linkifiers));
  return md;
}

interface Compiled {
  linkifiers: CompiledLinkifier[];
  renderer?: Renderer;
}

// Compiled forms by linkifier list: the shared cache (store/cache.ts) hands out the same array until the linkifiers change.
const compiledLists = new WeakMap<RenderOptions['linkifiers'], Compiled>();

function compile(linkifiers: RenderOptions['linkifiers']): Compiled {
  let compiled = compiledLists.get(linkifiers);
  if (!compiled) compiledLists.set(linkifiers, (compiled = { linkifiers: compileAll(linkifiers) }));
  return compiled;
}

/** HTML of `content`, without the trailing newline markdown-it leaves. */
export function renderMarkdown(content: string, options: RenderOptions): string {
  const compiled = compile(options.linkifiers);
  compiled.renderer ??= renderer(compiled.linkifiers);
  return compiled.renderer.render(content).replace(/\n$/, '');
}

// Plain URLs in topics are links too, as in message content.
const urlFinder = new MarkdownIt({ linkify: true }).linkify;

/** Links in a topic: plain URLs and linkifier matches, in text order. */
export function topicLinks(topic: string, linkifiers: RenderOptions['linkifiers']): { text: string; url: string }[] {
  const matches: Match[] = linkifierMatches(topic, compile(linkifiers).linkifiers);
  for (const found of urlFinder.match(topic) ?? []) {
    if (matches.some((match) => found.index < match.end && match.start < found.lastIndex)) continue;
    matches.push({ start: found.index, end: found.lastIndex, text: found.raw, url: found.url });
  }
  return matches.sort((a, b) => a.start - b.start).map(({ text, url }) => ({ text, url }));
}
