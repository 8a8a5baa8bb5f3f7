/**
 * Loops of named schemas that openapi-typescript's output cannot express: a
 * schema that reaches itself through union members, `allOf` members or array
 * items only (never through an object's property, whose type TypeScript
 * resolves lazily) becomes an interface member whose type names itself
 * (`A: string | components["schemas"]["A"][]`), which TypeScript refuses
 * (TS2502). The reference that closes such a loop is typed `unknown`
 * instead, reported with the schema's file and line.
 */
import { formatLocation } from '../../load/errors.js';
import type { SourceLocation } from '../../model/types.js';

type Node = Record<string, unknown>;

const COMPONENT = /^#\/components\/schemas\/([^/]+)$/;

/**
 * Replaces with `{}` each `$ref` that closes a loop of named schemas through
 * union members, `allOf` members and array items; `report` is called once per
 * schema holding such a `$ref`.
 */
export function breakEagerCycles(document: Node, report: (schema: string) => void): void {
  const schemas = (document.components as Node | undefined)?.schemas as Node | undefined;
  if (schemas === undefined || schemas === null || typeof schemas !== 'object') return;
  const state = new Map<string, 'active' | 'done'>();
  const reported = new Set<string>();

  const visitNamed = (name: string): void => {
    if (state.has(name)) return;
    state.set(name, 'active');
    walk(schemas[name], schemas, name, name);
    state.set(name, 'done');
  };
  const walk = (node: unknown, parent: Node | unknown[], key: string | number, host: string): void => {
    if (!isObject(node)) return;
    if (typeof node.$ref === 'string') {
      const match = COMPONENT.exec(node.$ref);
      const target = match === null ? undefined : segments(node.$ref)?.[2];
      if (target === undefined || !Object.hasOwn(schemas, target)) return;
      if (state.get(target) === 'active') {
        (parent as Record<string | number, unknown>)[key] = {};
        if (!reported.has(host)) {
          reported.add(host);
          report(host);
        }
        return;
      }
      visitNamed(target);
      return;
    }
    for (const list of ['allOf', 'anyOf', 'oneOf', 'prefixItems']) {
      const members = node[list];
      if (Array.isArray(members)) members.forEach((member, index) => walk(member, members, index, host));
    }
    const items = node.items;
    if (Array.isArray(items)) items.forEach((item, index) => walk(item, items, index, host));
    else walk(items, node, 'items', host);
  };
  for (const name of Object.keys(schemas)) visitNamed(name);
}

/** The message for a schema whose loop was cut, at its location. */
export function cycleMessage(name: string, at: SourceLocation | undefined): string {
  const where = at === undefined ? '' : `${formatLocation(at)}: `;
  return `${where}types: schema \`${name}\` contains itself through unions, allOf or array items only, which a TypeScript interface member cannot express; that inner reference is typed \`unknown\``;
}

/** `#/a/b~1c/%7Bd%7D` -> ['a', 'b/c', '{d}']; undefined for anything but an internal pointer. */
function segments(ref: string): string[] | undefined {
  if (!ref.startsWith('#/')) return undefined;
  try {
    return ref.slice(2).split('/').map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
