import type { ObjectSchema } from '../../../model/types.js';
import { appendExpr, appendText, ifBlock, indent, isInheritedName, literal, propertySegment } from '../code.js';
import { KIND_NOUN } from '../describe.js';
import { enumMiss, patternConstant } from './constants.js';
import { emitCheck, guarded, type CheckArgs } from './dispatch.js';

export function checkObject(args: CheckArgs<ObjectSchema>): string[] {
  const { schema, value, sink, path, scope, ctx } = args;
  const record = scope.next('o');
  const rest: string[] = [`const ${record} = ${value} as Record<string, unknown>;`];

  for (const property of schema.properties) {
    const key = literal(property.name);
    const propertyPath = appendText(path, propertySegment(property.name));
    const element = scope.next('x');
    const check = emitCheck({ ...args, schema: property.schema, value: element, path: propertyPath, typeKnown: false });
    if (!property.required && check.length === 0) continue;
    // Names like `constructor` would otherwise be found on Object.prototype.
    const read = isInheritedName(property.name)
      ? `Object.hasOwn(${record}, ${key}) ? ${record}[${key}] : undefined`
      : `${record}[${key}]`;
    rest.push(`const ${element} = ${read};`);
    if (property.required) {
      rest.push(...ifBlock(`${element} === undefined`, sink.fail('required', propertyPath, 'is required'), check));
    } else {
      rest.push(...ifBlock(`${element} !== undefined`, check));
    }
  }

  rest.push(...extraKeys(record));
  return guarded(
    args,
    `typeof ${value} === "object" && ${value} !== null && !Array.isArray(${value})`,
    undefined,
    KIND_NOUN.object,
    rest.length === 1 ? [] : rest,
  );

  /** Checks on keys the schema does not list: `additionalProperties`, `propertyNames`, strict mode. */
  function extraKeys(obj: string): string[] {
    const extra = schema.additionalProperties;
    const listed = schema.properties.length > 0;
    // A free-form object (nothing listed, anything allowed) has no unknown keys, even in strict mode.
    const strictOnly = extra === true && listed && sink.strict !== 'false';
    const pattern = schema.propertyNamesPattern;
    if (extra === true && !strictOnly && pattern === undefined) return [];
    // Without a pattern to check, the strict-mode loop is skipped entirely in the default (open) mode.
    const loopOnlyWhenStrict = strictOnly && pattern === undefined;

    const key = scope.next('k');
    const keyPath = appendExpr(path, `keySegment(${key})`);
    const body: string[] = [];
    if (pattern !== undefined) {
      const regex = patternConstant(pattern, ctx);
      body.push(
        ...ifBlock(
          `!${regex}.test(${key})`,
          sink.fail('propertyNames', keyPath, `name must match the pattern ${literal(pattern)}`),
        ),
      );
    }
    const unlisted: string[] = [];
    if (extra === false) {
      unlisted.push(...sink.fail('additionalProperties', keyPath, 'is not allowed'));
    } else if (extra === true) {
      const failure = sink.fail('strict', keyPath, 'is not a known property');
      if (loopOnlyWhenStrict) unlisted.push(...failure);
      else if (strictOnly) unlisted.push(...ifBlock(sink.strict, failure));
    } else {
      const element = scope.next('x');
      const check = emitCheck({ ...args, schema: extra, value: element, path: keyPath, typeKnown: false });
      if (check.length > 0) unlisted.push(`const ${element} = ${obj}[${key}];`, ...check);
    }
    if (unlisted.length > 0) {
      if (listed) {
        const unknownKey = enumMiss(key, schema.properties.map((p) => p.name), ctx, 'KEYS');
        body.push(...ifBlock(unknownKey, unlisted));
      } else {
        body.push(...unlisted);
      }
    }
    if (body.length === 0) return [];
    const loop = [`for (const ${key} in ${obj}) {`, ...indent(body), '}'];
    return loopOnlyWhenStrict ? ifBlock(sink.strict, loop) : loop;
  }
}
