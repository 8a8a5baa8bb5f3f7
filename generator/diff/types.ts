/**
 * What `teamchat diff` reports: one record per difference between two API
 * models, classified for clients built from the older one. This shape is
 * also the `--format json` output (documented in docs/diff.md).
 */

/** Where a change sits. Parameter locations as in the model; `response` is the success body; `error` an error body. */
export type DiffLocation = 'document' | 'operation' | 'path' | 'query' | 'header' | 'cookie' | 'body' | 'response' | 'error';

export const CHANGE_KINDS = [
  'operation-added',
  'operation-removed',
  'operation-moved',
  'request-body-changed',
  'security-added',
  'security-removed',
  'parameter-added',
  'parameter-removed',
  'parameter-moved',
  'parameter-encoding-changed',
  'parameter-required',
  'parameter-optional',
  'default-changed',
  'field-added',
  'field-removed',
  'field-required',
  'field-optional',
  'nullable-added',
  'nullable-removed',
  'type-changed',
  'type-widened',
  'type-narrowed',
  'variant-added',
  'variant-removed',
  'enum-value-added',
  'enum-value-removed',
  'enum-added',
  'enum-removed',
  'const-changed',
  'limit-changed',
  'pattern-changed',
  'format-changed',
  'additional-properties-changed',
  'error-code-added',
  'error-code-removed',
  'error-status-changed',
  'deprecated',
  'undeprecated',
  'level-note-added',
  'level-note-removed',
] as const;

export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface DiffChange {
  /** The operation concerned; `null` for document-wide changes (error-code bodies shared by operations). */
  operationId: string | null;
  location: DiffLocation;
  /**
   * Parameter name or field path (`narrow[].operator`, `messages[].flags`;
   * `[]` array items, `{}` map values, `(Name)` a union variant), the error
   * code (`CODE` or `CODE.field`), or `''` for the operation itself.
   */
  name: string;
  kind: ChangeKind;
  /** Whether a client built from the base can fail against a server built from the head. */
  breaking: boolean;
  /**
   * The highest feature level noted (`x-feature-level`, `x-changes`) at the
   * place of the change or an enclosing place in the head document (for a
   * removal, at the enclosing place that remains); `null` when none is.
   */
  level: number | null;
  message: string;
}

/** How a schema change affects the set of values it accepts. */
export type Effect = 'widened' | 'narrowed' | 'changed' | 'none';

/**
 * Which side writes the values: `request` values are written by clients (the
 * server must keep accepting them: narrowing breaks), `response` values by
 * servers (clients must keep understanding them: widening breaks).
 */
export type Direction = 'request' | 'response';

export function isBreaking(effect: Effect, direction: Direction): boolean {
  if (effect === 'none') return false;
  if (effect === 'changed') return true;
  return direction === 'request' ? effect === 'narrowed' : effect === 'widened';
}
