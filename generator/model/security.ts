/**
 * Security: the document's `components.securitySchemes` as
 * `SecuritySchemeModel`s, and the requirement in force for each operation
 * (its own `security`, else the document's).
 */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import { compareStrings, deriveNames } from './names.js';
import type { SecuritySchemeModel } from './types.js';

const API_KEY_LOCATIONS = ['header', 'query', 'cookie'] as const;

/** Every entry of `components.securitySchemes`, sorted by name. */
export function buildSecuritySchemes(ctx: BuildContext, doc: RawNode): SecuritySchemeModel[] {
  if (!isRecord(doc.components) || doc.components.securitySchemes === undefined) return [];
  const schemes = ctx.record(doc.components, 'securitySchemes', 'a map of security schemes');
  const keys = Object.keys(schemes).sort(compareStrings);
  const names = deriveNames(keys);
  return keys.map((name) => {
    const node = ctx.deref(schemes[name]);
    if (!isRecord(node)) ctx.fail(schemes, name, `security scheme \`${name}\` must be a security scheme object`);
    return { name, names: names.get(name)!, description: ctx.text(node, 'description'), ...schemeKind(ctx, name, node), source: ctx.locate(node) };
  });
}

type Kind = Pick<SecuritySchemeModel, 'kind' | 'in' | 'parameterName' | 'scheme' | 'bearerFormat'>;

function schemeKind(ctx: BuildContext, name: string, node: RawNode): Kind {
  switch (node.type) {
    case 'http': {
      if (typeof node.scheme !== 'string' || node.scheme.trim() === '') ctx.fail(node, 'scheme', `security scheme \`${name}\` (http) needs a \`scheme\``);
      const scheme = node.scheme.trim();
      // HTTP authentication scheme names are case-insensitive (RFC 9110).
      switch (scheme.toLowerCase()) {
        case 'basic':
          return { kind: 'basic' };
        case 'bearer':
          return typeof node.bearerFormat === 'string' ? { kind: 'bearer', bearerFormat: node.bearerFormat } : { kind: 'bearer' };
        default:
          return { kind: 'http', scheme };
      }
    }
    case 'apiKey': {
      if (typeof node.name !== 'string' || node.name === '') ctx.fail(node, 'name', `security scheme \`${name}\` (apiKey) needs the \`name\` of its header, query parameter or cookie`);
      if (!API_KEY_LOCATIONS.includes(node.in as (typeof API_KEY_LOCATIONS)[number])) {
        ctx.fail(node, 'in', `security scheme \`${name}\` (apiKey) is \`in\` header, query or cookie (found \`${String(node.in)}\`)`);
      }
      return { kind: 'apiKey', in: node.in as SecuritySchemeModel['in'], parameterName: node.name };
    }
    case 'oauth2':
      return { kind: 'oauth2' };
    case 'openIdConnect':
      return { kind: 'openIdConnect' };
    case 'mutualTLS':
      return { kind: 'mutualTLS' };
    default:
      return ctx.fail(node, 'type', `security scheme \`${name}\` has type \`${String(node.type)}\`; the types are http, apiKey, oauth2, openIdConnect and mutualTLS`);
  }
}

/**
 * The requirement in force for an operation: alternatives (any one
 * suffices), each the scheme names that must all be sent. The operation's
 * own `security` wins over the document's; `[]` and `[{}]` mean none, and an
 * empty alternative beside others makes credentials optional. Scopes are not
 * kept: the model says which credential to send, not what it grants.
 */
export function operationSecurity(ctx: BuildContext, doc: RawNode, operation: RawNode, schemes: readonly SecuritySchemeModel[]): string[][] {
  const owner = operation.security !== undefined ? operation : doc;
  if (owner.security === undefined) return [];
  const requirement = ctx.deref(owner.security);
  if (!Array.isArray(requirement)) ctx.fail(owner, 'security', '`security` must be a list of security requirements');
  const known = new Set(schemes.map((s) => s.name));
  const alternatives: string[][] = [];
  requirement.forEach((raw, i) => {
    const alternative = ctx.deref(raw);
    if (!isRecord(alternative)) ctx.fail(requirement, String(i), 'a security requirement must be a map of scheme names to scopes');
    const written = Object.keys(alternative);
    // Each name as the schemes it stands for: itself when declared; else the
    // schemes declared under the same name up to case (`basicAuth` for
    // `BasicAuth`), each one an alternative when there are several, since
    // picking one would be a guess. A scheme declared under no such name
    // cannot be typed, sent or checked: it is left out of the requirement
    // (the rest of its alternative still applies). An alternative that named
    // only such schemes is dropped rather than read as "no credentials",
    // which would make the others optional.
    const resolved: string[][] = [];
    for (const name of written) {
      const matches = known.has(name) ? [name] : [...known].filter((k) => k.toLowerCase() === name.toLowerCase()).sort(compareStrings);
      if (matches.length === 0) {
        ctx.warn(alternative, name, `security requirement names \`${name}\`, which \`components.securitySchemes\` does not declare; it is ignored (neither sent by the client nor checked by the server)`);
        continue;
      }
      if (matches.length === 1 && matches[0] !== name) {
        ctx.warn(alternative, name, `security requirement names \`${name}\`, which \`components.securitySchemes\` declares as \`${matches[0]}\`: read as \`${matches[0]}\``);
      } else if (matches.length > 1) {
        const list = matches.map((m) => `\`${m}\``).join(' and ');
        ctx.warn(alternative, name, `security requirement names \`${name}\`, which matches ${list} only up to case: read as either of them (one alternative each), never one chosen for you; rename it to the one you mean`);
      }
      resolved.push(matches);
    }
    if (written.length > 0 && resolved.length === 0) return;
    for (const names of combinations(resolved)) {
      const sorted = [...new Set(names)].sort(compareStrings);
      if (!alternatives.some((a) => a.join('\n') === sorted.join('\n'))) alternatives.push(sorted);
    }
  });
  // Only the empty alternative (or none left): nothing is required, as with `security: []`.
  if (alternatives.every((a) => a.length === 0)) return [];
  return alternatives;
}

/** Every way of taking one name from each list, in order. */
function combinations(lists: readonly string[][]): string[][] {
  return lists.reduce<string[][]>((done, options) => done.flatMap((prefix) => options.map((option) => [...prefix, option])), [[]]);
}

/** Whether every alternative needs a credential. */
export function needsAuth(security: readonly string[][]): boolean {
  return security.length > 0 && security.every((alternative) => alternative.length > 0);
}
