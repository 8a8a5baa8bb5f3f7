import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileTemplate, templateEnvironment } from '../../template-cache.js';
import type { ClientPackageView } from './view.js';

export interface ClientPackageTemplates {
  packageJson(view: ClientPackageView): string;
  readme(view: ClientPackageView): string;
}

const compiled = new Map<string, ClientPackageTemplates>();

/** `templates/client-package/*.hbs`, compiled once per templates folder: no HTML escaping, strict lookups. */
export function loadTemplates(templatesDir: string): ClientPackageTemplates {
  let templates = compiled.get(templatesDir);
  if (templates === undefined) {
    const env = templateEnvironment();
    const compile = (file: string) => {
      const template = compileTemplate<ClientPackageView>(env, readFileSync(join(templatesDir, 'client-package', file), 'utf8'));
      return (view: ClientPackageView) => `${template(view).replace(/\r\n?/g, '\n').trimEnd()}\n`;
    };
    templates = { packageJson: compile('package.json.hbs'), readme: compile('README.md.hbs') };
    compiled.set(templatesDir, templates);
  }
  return templates;
}
