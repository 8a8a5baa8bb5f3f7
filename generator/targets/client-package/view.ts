import type { ApiModel } from '../../model/types.js';
import { clientOptionsExample } from '../shared/credentials.js';

/** What `templates/client-package/*.hbs` receive. JSON fields are ready-made JSON literals. */
export interface ClientPackageView {
  /** The banner as a markdown (HTML) comment. */
  banner: string;
  /** Package name and version, as given by the config. */
  name: string;
  version: string;
  nameJson: string;
  versionJson: string;
  /** `"Typed client for <title> <version>"` as a JSON string. */
  descriptionJson: string;
  /** The spec's title and version, for prose. */
  title: string;
  apiVersion: string;
  /** Path prefix of every operation. */
  basePath: string;
  /** The `exports` and `files` entries of package.json, as JSON (indented to sit at the top level). */
  exportsJson: string;
  filesJson: string;
  /** The `peerDependencies` and `peerDependenciesMeta` entries of package.json (each a JSON object, indented), '' when the package has none. */
  peerDependenciesJson: string;
  peerDependenciesMetaJson: string;
  /** Whether the package has the `./query` entry (TanStack Query options). */
  query: boolean;
  /** One operation's method name, for the README's example. */
  exampleMethod: string;
  /** The credentials options of the README's example (from the client target), '' when the API has no security schemes. */
  optionsExample: string;
}

/** One entry point of the package: `.` for the client, `./types`, `./validators`, `./operations/*`. */
export interface EntryPoint {
  subpath: string;
  /** Module file without extension, relative to the package root (`client`, `client/operations/*`). */
  module: string;
}

export function buildClientPackageView(
  model: ApiModel,
  options: { name: string; version: string; banner: string; entryPoints: EntryPoint[]; files: string[]; optionalPeers: Record<string, string> },
): ClientPackageView {
  const exportsMap = Object.fromEntries([
    ...options.entryPoints.map(({ subpath, module }) => [subpath, { types: `./${module}.d.ts`, default: `./${module}.js` }]),
    ['./package.json', './package.json'],
  ]);
  // Files at the top, folders as one entry each (`client/`).
  const files = [...new Set(options.files.map((file) => (file.includes('/') ? `${file.slice(0, file.indexOf('/'))}/` : file)))];
  const indent = (json: string) => json.replace(/\n/g, '\n  ');
  return {
    banner: options.banner,
    name: options.name,
    version: options.version,
    nameJson: JSON.stringify(options.name),
    versionJson: JSON.stringify(options.version),
    descriptionJson: JSON.stringify(`Typed client for ${model.title} ${model.version}`),
    title: model.title,
    apiVersion: model.version,
    basePath: model.basePath,
    exportsJson: indent(JSON.stringify(exportsMap, null, 2)),
    filesJson: indent(JSON.stringify(files, null, 2)),
    ...peerDependencies(options.optionalPeers, indent),
    query: options.entryPoints.some((entry) => entry.subpath === './query'),
    exampleMethod: model.operations[0]?.names.camel ?? 'someOperation',
    optionsExample: clientOptionsExample(model),
  };
}

/** Optional peer dependencies as package.json spells them, or '' for none. */
function peerDependencies(peers: Record<string, string>, indent: (json: string) => string): Pick<ClientPackageView, 'peerDependenciesJson' | 'peerDependenciesMetaJson'> {
  const names = Object.keys(peers).sort();
  if (names.length === 0) return { peerDependenciesJson: '', peerDependenciesMetaJson: '' };
  return {
    peerDependenciesJson: indent(JSON.stringify(Object.fromEntries(names.map((name) => [name, peers[name]])), null, 2)),
    peerDependenciesMetaJson: indent(JSON.stringify(Object.fromEntries(names.map((name) => [name, { optional: true }])), null, 2)),
  };
}
