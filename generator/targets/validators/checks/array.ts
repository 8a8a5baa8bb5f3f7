import type { ArraySchema } from '../../../model/types.js';
import { block, guard, ifBlock, type Stmt } from '../builder.js';
import { appendExpr, appendText } from '../code.js';
import { partLocal } from '../context.js';
import { KIND_NOUN } from '../describe.js';
import { duplicatesHelper } from './constants.js';
import { emitCheck, guarded, type CheckArgs } from './dispatch.js';
import { matchCount } from './union.js';

function items(n: number): string {
  return `${n} item${n === 1 ? '' : 's'}`;
}

export function checkArray(args: CheckArgs<ArraySchema>): Stmt[] {
  const { schema, value, sink, path, scope, label } = args;
  const rest: Stmt[] = [];
  if (schema.minItems !== undefined && schema.minItems > 0) {
    rest.push(...ifBlock(`${value}.length < ${schema.minItems}`, sink.fail('minItems', path, `must have at least ${items(schema.minItems)}`)));
  }
  if (schema.maxItems !== undefined) {
    rest.push(...ifBlock(`${value}.length > ${schema.maxItems}`, sink.fail('maxItems', path, `must have at most ${items(schema.maxItems)}`)));
  }
  const prefix = schema.prefixItems ?? [];
  prefix.forEach((itemSchema, index) => {
    const element = partLocal(scope, value, `item ${index}`);
    const check = emitCheck({ ...args, schema: itemSchema, value: element, path: appendText(path, `[${index}]`), typeKnown: false, label: `${label}Item${index}` });
    if (check.length > 0) {
      rest.push(...ifBlock(`${value}.length > ${index}`, [`const ${element}: unknown = ${value}[${index}];`, ...check]));
    }
  });
  if (schema.items !== undefined) {
    const i = partLocal(scope, value, 'i');
    const element = partLocal(scope, value, 'item');
    const elementPath = appendText(appendExpr(appendText(path, '['), i), ']');
    const check = emitCheck({ ...args, schema: schema.items, value: element, path: elementPath, typeKnown: false, label: `${label}Item` });
    if (check.length > 0) {
      rest.push(block(`for (let ${i} = ${prefix.length}; ${i} < ${value}.length; ${i}++)`, [`const ${element}: unknown = ${value}[${i}];`, ...check], 'loop'));
    }
  } else if (schema.prefixItems !== undefined && (schema.maxItems === undefined || schema.maxItems > prefix.length)) {
    // A tuple without `items` allows nothing after its positions (unless maxItems already says so).
    rest.push(...ifBlock(`${value}.length > ${prefix.length}`, sink.fail('items', path, `must have at most ${items(prefix.length)}`)));
  }
  if (schema.uniqueItems === true) {
    rest.push(...ifBlock(`${duplicatesHelper(args.ctx)}(${value})`, sink.fail('uniqueItems', path, 'must not have equal items')));
  }
  if (schema.contains !== undefined) {
    const count = partLocal(scope, value, 'matched');
    const i = partLocal(scope, value, 'i');
    const fn = matchCount(schema.contains, { ...args, label: `${label}Contains` });
    const min = schema.minContains ?? 1;
    rest.push(`let ${count} = 0;`, block(`for (let ${i} = 0; ${i} < ${value}.length; ${i}++)`, fn(`${value}[${i}]`, count), 'loop'));
    if (min > 0) rest.push(...ifBlock(`${count} < ${min}`, sink.fail('contains', path, `must have at least ${items(min)} matching \`contains\``)));
    if (schema.maxContains !== undefined) {
      rest.push(...ifBlock(`${count} > ${schema.maxContains}`, sink.fail('contains', path, `must have at most ${items(schema.maxContains)} matching \`contains\``)));
    }
  }
  return guarded(args, guard(`Array.isArray(${value})`, `!Array.isArray(${value})`), undefined, KIND_NOUN.array, rest);
}
