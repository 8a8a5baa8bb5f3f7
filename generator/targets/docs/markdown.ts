/** Markdown helpers shared by every docs page. */

/**
 * Makes text safe inside a table cell: pipes escaped (GFM honours `\|` even
 * inside code spans), paragraph breaks kept as `<br>`, other line breaks
 * folded into spaces. Backslashes stay: in descriptions they are markdown.
 */
export function escapeCell(text: string): string {
  return text
    .trim()
    .replace(/\|/g, '\\|')
    .replace(/\r\n?/g, '\n')
    .replace(/\n[ \t]*\n\s*/g, '<br>')
    .replace(/\s*\n\s*/g, ' ');
}

/** An inline code span that survives backticks in its content. */
export function inlineCode(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run inside it. */
export function codeBlock(language: string, text: string): string {
  const longestRun = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Text for `[text](url)`: brackets and pipes escaped, line breaks folded. */
export function linkText(text: string): string {
  return escapeCell(text).replace(/[[\]]/g, '\\$&');
}

/** Text for one list item: surrounding blank space dropped, line breaks folded into spaces. */
export function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}
