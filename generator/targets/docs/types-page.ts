import type { ApiModel } from '../../model/types.js';
import type { SchemaLookup } from './fields.js';
import { INDEX_FILE } from './links.js';
import { cachedTypeView, type NamedTypeView } from './operation-page.js';

/** What `templates/docs/types.md.hbs` receives. */
export interface TypesPageView {
  banner: string;
  title: string;
  /** Sorted by name. */
  types: NamedTypeView[];
  indexLink: string;
}

/** The shared types page: every named type some operation page leaves to it. */
export function typesPageView(model: ApiModel, lookup: SchemaLookup, names: Set<string>, banner: string, cache: Map<string, NamedTypeView>): TypesPageView {
  const ctx = { lookup, featureLevels: model.conventions.featureLevels };
  return {
    banner,
    title: `${model.title} ${model.version}`,
    types: [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((name) => cachedTypeView(name, ctx, cache)),
    indexLink: INDEX_FILE,
  };
}
