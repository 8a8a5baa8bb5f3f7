import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import type { ChangelogView } from './changelog-page.js';
import type { IndexView } from './index-page.js';
import type { OperationPageView } from './operation-page.js';
import type { TypesPageView } from './types-page.js';

export interface DocsTemplates {
  operation(view: OperationPageView): string;
  changelog(view: ChangelogView): string;
  index(view: IndexView): string;
  types(view: TypesPageView): string;
}

/**
 * Compiles `templates/docs/*.md.hbs` once per run. Markdown needs no HTML
 * escaping; strict mode turns a field missing from a view into an error.
 */
export function loadTemplates(templatesDir: string): DocsTemplates {
  const handlebars = Handlebars.create();
  const compile = <View>(name: string): ((view: View) => string) => {
    const source = readFileSync(join(templatesDir, 'docs', `${name}.md.hbs`), 'utf8');
    const template = handlebars.compile<View>(source, { noEscape: true, strict: true });
    return (view) => formatPage(template(view));
  };
  return {
    operation: compile<OperationPageView>('operation'),
    changelog: compile<ChangelogView>('changelog'),
    index: compile<IndexView>('index'),
    types: compile<TypesPageView>('types'),
  };
}

/** The one formatting step: LF endings, no trailing spaces, one final newline. */
function formatPage(text: string): string {
  return `${text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trimEnd()}\n`;
}
