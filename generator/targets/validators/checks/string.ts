import type { StringSchema } from '../../../model/types.js';
import { guard, ifBlock, type Stmt } from '../builder.js';
import { literal } from '../code.js';
import { KIND_NOUN } from '../describe.js';
import { ENUM_INLINE_LIMIT, enumMiss, formatConstant, patternTest } from './constants.js';
import { guarded, type CheckArgs } from './dispatch.js';

export function checkString(args: CheckArgs<StringSchema>): Stmt[] {
  const { schema, value, sink, path, ctx, label } = args;
  const rest: Stmt[] = [];
  if (schema.const !== undefined && sink.kind === 'test' && args.typeKnown === false && schema.enum === undefined) {
    // A predicate compares with the constant alone: nothing else is equal to it.
    const others = checkString({ ...args, schema: { ...schema, const: undefined }, typeKnown: true });
    return [...ifBlock(`${value} !== ${literal(schema.const)}`, sink.fail('const', path, '')), ...others];
  }
  if (schema.const !== undefined) {
    rest.push(...ifBlock(`${value} !== ${literal(schema.const)}`, sink.fail('const', path, `must be ${literal(schema.const)}`)));
  }
  if (schema.enum !== undefined) {
    const list = schema.enum.map((v) => literal(v)).join(', ');
    rest.push(...ifBlock(enumMiss(value, schema.enum, ctx, `${label}Values`, ENUM_INLINE_LIMIT), sink.fail('enum', path, `must be one of ${list}`)));
  }
  // Limits count code points; UTF-16 length bounds them (cp <= length <= 2 cp), so counting is rarely needed.
  if (schema.minLength !== undefined && schema.minLength > 0) {
    const min = schema.minLength;
    rest.push(
      ...ifBlock(
        `${value}.length < ${2 * min} && ${ctx.use('codePointLength')}(${value}) < ${min}`,
        sink.fail('minLength', path, `must be at least ${min} character${min === 1 ? '' : 's'}`),
      ),
    );
  }
  if (schema.maxLength !== undefined) {
    const max = schema.maxLength;
    rest.push(
      ...ifBlock(
        `${value}.length > ${max} && ${ctx.use('codePointLength')}(${value}) > ${max}`,
        sink.fail('maxLength', path, `must be at most ${max} character${max === 1 ? '' : 's'}`),
      ),
    );
  }
  if (schema.pattern !== undefined) {
    rest.push(...ifBlock(`!${patternTest(schema.pattern, value, ctx, `${label}Pattern`)}`, sink.fail('pattern', path, `must match the pattern ${literal(schema.pattern)}`)));
  }
  const format = schema.format === undefined ? undefined : formatConstant(schema.format, ctx);
  if (format !== undefined) {
    rest.push(...ifBlock(`!${format}.test(${value})`, sink.fail('format', path, `must be a valid ${schema.format}`)));
  }
  return guarded(args, guard(`typeof ${value} === "string"`, `typeof ${value} !== "string"`), undefined, KIND_NOUN.string, rest);
}
