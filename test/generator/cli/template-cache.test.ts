/**
 * Templates compiled through the cache of their precompiled form
 * (generator/template-cache.ts), rendered by Handlebars' runtime alone: the
 * first compile writes an entry, later ones render from it, each template
 * text has its own, a template that does not parse fails when rendered, and
 * `TEAMCHAT_CACHE_DIR=off` keeps nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { compileTemplate, templateEnvironment } from '../../../generator/template-cache.js';

const scratch = mkdtempSync(join(tmpdir(), 'teamchat-template-cache-'));
const saved = process.env.TEAMCHAT_CACHE_DIR;
let dir: string;
let n = 0;
beforeEach(() => {
  dir = join(scratch, `run-${n++}`);
  process.env.TEAMCHAT_CACHE_DIR = dir;
});
afterEach(() => {
  if (saved === undefined) delete process.env.TEAMCHAT_CACHE_DIR;
  else process.env.TEAMCHAT_CACHE_DIR = saved;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SOURCE = '{{#each items}}<{{name}}>{{#if @last}}.{{else}}, {{/if}}{{/each}}';
const view = { items: [{ name: 'a&b' }, { name: '"c"' }] };
const entries = () => readdirSync(dir).filter((f) => f.endsWith('.hbs.js'));

it('renders as Handlebars.compile with no escaping and strict lookups, and keeps one entry per text', () => {
  const direct = Handlebars.create().compile(SOURCE, { noEscape: true, strict: true })(view);
  expect(direct).toBe('<a&b>, <"c">.');
  expect(compileTemplate(templateEnvironment(), SOURCE)(view)).toBe(direct);
  expect(entries()).toHaveLength(1);
  expect(compileTemplate(templateEnvironment(), SOURCE)(view)).toBe(direct);
  expect(entries()).toHaveLength(1);
  expect(compileTemplate(Handlebars.create(), `${SOURCE}!`)(view)).toBe(`${direct}!`);
  expect(entries()).toHaveLength(2);
  expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(() => compileTemplate(Handlebars.create(), '{{missing}}')({})).toThrow(/"missing" not defined/);
});

it('renders a later compile from the stored entry', () => {
  compileTemplate(Handlebars.create(), SOURCE)(view);
  const [entry] = entries();
  // An entry of another text under this text's name: what renders now shows where it came from.
  writeFileSync(join(dir, entry!), Handlebars.precompile('stored {{items.length}}', { noEscape: true, strict: true }) as string);
  expect(compileTemplate(Handlebars.create(), SOURCE)(view)).toBe('stored 2');
});

it('compiles again when the entry cannot be read as a template', () => {
  compileTemplate(Handlebars.create(), SOURCE)(view);
  const [entry] = entries();
  writeFileSync(join(dir, entry!), 'not javascript {');
  expect(compileTemplate(Handlebars.create(), SOURCE)(view)).toBe('<a&b>, <"c">.');
  expect(readFileSync(join(dir, entry!), 'utf8')).not.toBe('not javascript {');
});

it('fails on a template that does not parse when it is rendered, not before', () => {
  const template = compileTemplate(Handlebars.create(), '{{#if x}}open');
  expect(() => template({ x: true })).toThrow(/Parse error|Expecting/);
});

it('keeps nothing with TEAMCHAT_CACHE_DIR=off', () => {
  process.env.TEAMCHAT_CACHE_DIR = 'off';
  expect(compileTemplate(Handlebars.create(), SOURCE)(view)).toBe('<a&b>, <"c">.');
  expect(readdirSync(scratch)).not.toContain('off');
});
