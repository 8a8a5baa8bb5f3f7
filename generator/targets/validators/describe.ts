import type { Schema } from '../../model/types.js';
import type { EmitContext } from './context.js';

/** What a value of a kind is called in messages: `must be an integer`. */
export const KIND_NOUN = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
  array: 'a list',
  object: 'an object',
} as const;

const PLURAL: Record<string, string> = {
  string: 'strings',
  integer: 'integers',
  number: 'numbers',
  boolean: 'booleans',
  null: 'nulls',
  array: 'lists',
  object: 'objects',
};

/** A noun phrase for what `schema` accepts, used in union messages (`an integer or a list of integers`). */
export function describe(schema: Schema, ctx: EmitContext, depth = 0): string {
  const resolved = ctx.resolve(schema);
  switch (resolved.kind) {
    case 'string':
    case 'integer':
      if (resolved.const !== undefined) return JSON.stringify(resolved.const);
      if (resolved.enum?.length === 1) return JSON.stringify(resolved.enum[0]);
      if (resolved.enum !== undefined) return `one of ${resolved.enum.map((v) => JSON.stringify(v)).join(', ')}`;
      return KIND_NOUN[resolved.kind];
    case 'boolean':
      return resolved.const !== undefined ? String(resolved.const) : KIND_NOUN.boolean;
    case 'number':
      if (resolved.const !== undefined) return JSON.stringify(resolved.const);
      if (resolved.enum?.length === 1) return JSON.stringify(resolved.enum[0]);
      if (resolved.enum !== undefined) return `one of ${resolved.enum.map((v) => JSON.stringify(v)).join(', ')}`;
      return KIND_NOUN[resolved.kind];
    case 'null':
    case 'object':
      return KIND_NOUN[resolved.kind];
    case 'array': {
      if (resolved.items === undefined || resolved.prefixItems !== undefined || depth > 2) return KIND_NOUN.array;
      const item = ctx.resolve(resolved.items);
      const plural = PLURAL[item.kind];
      return plural === undefined ? KIND_NOUN.array : `a list of ${plural}`;
    }
    case 'union': {
      const phrases = [...new Set(resolved.variants.map((v) => describe(v, ctx, depth + 1)))];
      if (phrases.length <= 1) return phrases[0] ?? 'nothing';
      return `${phrases.slice(0, -1).join(', ')} or ${phrases[phrases.length - 1]}`;
    }
    case 'any':
      if (resolved.const !== undefined) return JSON.stringify(resolved.const);
      if (resolved.enum !== undefined) return `one of ${resolved.enum.map((v) => JSON.stringify(v)).join(', ')}`;
      return 'any value';
    case 'never':
      return 'nothing';
  }
}
