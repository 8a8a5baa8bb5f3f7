import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileTemplate, templateEnvironment } from '../../template-cache.js';
import type { ChangelogView } from './changelog-page.js';
import type { HtmlPageView, StylesheetView } from './html.js';
import type { IndexView } from './index-page.js';
import type { OperationPageView } from './operation-page.js';
import type { TypesPageView } from './types-page.js';

export interface DocsTemplates {
  operation(view: OperationPageView): string;
  changelog(view: ChangelogView): string;
  index(view: IndexView): string;
  types(view: TypesPageView): string;
  /** The HTML page around a rendered markdown page. */
  page(view: HtmlPageView): string;
  stylesheet(view: StylesheetView): string;
}

/**
 * Compiles `templates/docs/*.hbs` once per run. The views hold text already
 * escaped for its output (markdown cells, HTML), so templates do no escaping;
 * strict mode turns a field missing from a view into an error.
 */
export function loadTemplates(templatesDir: string): DocsTemplates {
  const handlebars = templateEnvironment();
  const compile = <View>(file: string): ((view: View) => string) => {
    const source = readFileSync(join(templatesDir, 'docs', `${file}.hbs`), 'utf8');
    const template = compileTemplate<View>(handlebars, source);
    return (view) => formatPage(template(view));
  };
  return {
    operation: compile<OperationPageView>('operation.md'),
    changelog: compile<ChangelogView>('changelog.md'),
    index: compile<IndexView>('index.md'),
    types: compile<TypesPageView>('types.md'),
    page: compile<HtmlPageView>('page.html'),
    stylesheet: compile<StylesheetView>('style.css'),
  };
}

/** The one formatting step: LF endings, no trailing spaces, one final newline. */
function formatPage(text: string): string {
  return `${text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trimEnd()}\n`;
}
