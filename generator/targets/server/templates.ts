import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileTemplate, templateEnvironment } from '../../template-cache.js';

export interface ServerTemplates {
  server: HandlebarsTemplateDelegate;
  handler: HandlebarsTemplateDelegate;
  handlers: HandlebarsTemplateDelegate;
  mockHandlers: HandlebarsTemplateDelegate;
}

const FILES: Record<keyof ServerTemplates, string> = {
  server: 'server.ts.hbs',
  handler: 'handler.ts.hbs',
  handlers: 'handlers.ts.hbs',
  mockHandlers: 'mock-handlers.ts.hbs',
};

const compiled = new Map<string, ServerTemplates>();

/** The server target's templates, compiled once per templates folder: no HTML escaping, strict lookups. */
export function loadTemplates(templatesDir: string): ServerTemplates {
  const dir = join(templatesDir, 'server');
  let templates = compiled.get(dir);
  if (templates === undefined) {
    const env = templateEnvironment();
    const compile = (file: string) => compileTemplate(env, readFileSync(join(dir, file), 'utf8'));
    templates = {
      server: compile(FILES.server),
      handler: compile(FILES.handler),
      handlers: compile(FILES.handlers),
      mockHandlers: compile(FILES.mockHandlers),
    };
    compiled.set(dir, templates);
  }
  return templates;
}
