import type { ApiModel, Operation } from '../../model/types.js';
import { CHANGELOG_FILE, REDOC_FILE, referenceLink } from './links.js';
import { escapeCell, inlineCode, linkText } from './markdown.js';

/** What `templates/docs/index.md.hbs` receives. */
export interface IndexView {
  banner: string;
  title: string;
  version: string;
  description: string;
  redocLink: string;
  /** Empty when the document names no feature levels (no changelog page). */
  changelogLink: string;
  maxFeatureLevel: number;
  tags: { name: string; description: string; operations: IndexRow[] }[];
}

export interface IndexRow {
  link: string;
  request: string;
  deprecated: boolean;
}

/** Operations under each tag in the document's tag order; untagged or unknown tags last. */
export function indexView(model: ApiModel, banner: string): IndexView {
  const known = new Set(model.tags.map((tag) => tag.name));
  const sections = model.tags.map((tag) => ({
    name: tag.name,
    description: tag.description,
    operations: model.operations.filter((operation) => operation.tags.includes(tag.name)),
  }));
  const other = model.operations.filter((operation) => !operation.tags.some((tag) => known.has(tag)));
  if (other.length > 0) sections.push({ name: 'other', description: '', operations: other });
  return {
    banner,
    title: model.title,
    version: model.version,
    description: model.description.trim(),
    redocLink: REDOC_FILE,
    changelogLink: model.conventions.featureLevels ? CHANGELOG_FILE : '',
    maxFeatureLevel: model.maxFeatureLevel,
    tags: sections
      .filter((section) => section.operations.length > 0)
      .map((section) => ({
        name: section.name,
        description: section.description,
        operations: section.operations.map((operation) => indexRow(operation)),
      })),
  };
}

function indexRow(operation: Operation): IndexRow {
  return {
    link: `[${linkText(operation.summary || operation.id)}](${referenceLink(operation)})`,
    request: escapeCell(inlineCode(`${operation.method.toUpperCase()} ${operation.basePath}${operation.path}`)),
    deprecated: operation.deprecated,
  };
}
