/** Named examples of media types and parameters. */
import { isRecord } from '../load/walk.js';
import type { BuildContext, RawNode } from './context.js';
import type { Example } from './types.js';

/** A node's `examples` map (name order; those without a `value` left out) or its single `example` (named `default`). */
export function readExamples(ctx: BuildContext, node: RawNode): Example[] {
  const examples: Example[] = [];
  if (isRecord(node.examples)) {
    for (const [name, raw] of Object.entries(node.examples)) {
      const example = ctx.deref(raw);
      if (!isRecord(example)) ctx.fail(node.examples, name, `example \`${name}\` must be an example object`);
      // An `externalValue`, or only a summary: nothing to check or show here.
      if (!('value' in example)) continue;
      examples.push({ name, summary: typeof example.summary === 'string' ? example.summary : '', value: example.value });
    }
  } else if (node.example !== undefined) {
    examples.push({ name: 'default', summary: '', value: node.example });
  }
  return examples;
}
