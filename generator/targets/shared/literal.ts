/** A TypeScript string literal (single-quoted) for any text, safe to print into generated code. */
export function tsString(text: string): string {
  const escaped = text.replace(/[\\'\n\r\u2028\u2029]/g, (char) => {
    switch (char) {
      case '\\':
        return '\\\\';
      case "'":
        return "\\'";
      case '\n':
        return '\\n';
      case '\r':
        return '\\r';
      default:
        return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }
  });
  return `'${escaped}'`;
}
