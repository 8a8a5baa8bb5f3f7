/**
 * Doc comments for generated code. Spec text is free-form: it must not end the
 * comment early (`*\/`) or start a tag by accident (`@` at a line start).
 */

export function escapeDocText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\*\//g, '*\\/')
    .replace(/^(\s*)@/gm, '$1\\@');
}

/** A `/** ... *\/` block from paragraphs (each may span lines), indented by `indent`. */
export function docComment(paragraphs: string[], indent: string): string {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    const text = paragraph.trim();
    if (text === '') continue;
    if (lines.length > 0) lines.push('');
    lines.push(...text.split('\n').map((line) => line.trimEnd()));
  }
  const body = lines.map((line) => (line === '' ? `${indent} *` : `${indent} * ${line}`));
  return [`${indent}/**`, ...body, `${indent} */`].join('\n');
}
