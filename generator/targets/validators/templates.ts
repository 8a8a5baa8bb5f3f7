import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Handlebars from 'handlebars';
import { compileTemplate, templateEnvironment } from '../../template-cache.js';

export interface Templates {
  validators: Handlebars.TemplateDelegate;
}

const compiled = new Map<string, Templates>();

/** The target's templates, compiled once per templates folder. */
export function loadTemplates(templatesDir: string): Templates {
  let templates = compiled.get(templatesDir);
  if (templates === undefined) {
    const compile = (file: string) => compileTemplate(templateEnvironment(), readFileSync(join(templatesDir, 'validators', file), 'utf8'));
    templates = { validators: compile('validators.ts.hbs') };
    compiled.set(templatesDir, templates);
  }
  return templates;
}
