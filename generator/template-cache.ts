/**
 * Handlebars templates compiled through a cache of their precompiled form.
 * Compiling (parsing a template and generating its JavaScript) is most of
 * what the templates cost a small document's `generate`; the precompiled
 * JavaScript of each template text is kept in the user's cache folder
 * (code-cache.ts: `TEAMCHAT_CACHE_DIR`, `off` disables) under the digest of
 * the text, the options and Handlebars' version, so a changed or
 * user-supplied template gets an entry of its own. Any failure to read or
 * write the cache falls back to compiling.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Handlebars from 'handlebars';
import { cacheFolder } from './code-cache.js';

const require = createRequire(import.meta.url);

/** What rendering needs of a Handlebars environment: its runtime's, or the whole package's. */
export type TemplateEnvironment = Pick<typeof Handlebars, 'template' | 'VERSION'>;

/**
 * A fresh environment of Handlebars' runtime alone. The compiler (parser,
 * code generator, source maps) is loaded only for a template the cache does
 * not hold, and through require(): Node's ESM loader would parse the
 * CommonJS package twice.
 */
export function templateEnvironment(): TemplateEnvironment {
  return (require('handlebars/runtime') as typeof Handlebars).create();
}

/** Every template: no HTML escaping (views hold text escaped for its output), strict lookups. */
const OPTIONS = { noEscape: true, strict: true } as const;

/**
 * `env.compile(source, OPTIONS)`, compiled on first call as Handlebars does
 * (so a template that does not parse fails when it is rendered, as before).
 */
export function compileTemplate<View>(env: TemplateEnvironment, source: string): HandlebarsTemplateDelegate<View> {
  let compiled: HandlebarsTemplateDelegate<View> | undefined;
  return (view, options) => {
    compiled ??= load<View>(env, source);
    return compiled(view, options);
  };
}

type TemplateSpec = Parameters<typeof Handlebars.template>[0];

function load<View>(env: TemplateEnvironment, source: string): HandlebarsTemplateDelegate<View> {
  const folder = cacheFolder();
  const file =
    folder === undefined
      ? undefined
      : join(folder, `${createHash('sha256').update(`${env.VERSION}\0${JSON.stringify(OPTIONS)}\0${source}`).digest('hex').slice(0, 32)}.hbs.js`);
  if (file !== undefined) {
    try {
      return env.template<View>(evaluate(readFileSync(file, 'utf8')));
    } catch {
      // Missing, unreadable or not a template of this Handlebars: compiled below.
    }
  }
  // A copy: Handlebars adds its own defaults to the options it is given.
  const precompiled = (require('handlebars') as typeof Handlebars).precompile(source, { ...OPTIONS }) as string;
  const template = env.template<View>(evaluate(precompiled));
  if (file !== undefined) {
    try {
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, precompiled);
      renameSync(temp, file);
    } catch {
      // A cache that cannot be written costs the next run the compile, nothing else.
    }
  }
  return template;
}

/** Precompiled template JavaScript (an object literal of functions) as the object. */
function evaluate(precompiled: string): TemplateSpec {
  // Handlebars' own output, read back from the user's private cache folder.
  return new Function(`return ${precompiled};`)() as TemplateSpec;
}
