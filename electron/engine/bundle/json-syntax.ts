/** 1-based line and column of a 0-based UTF-16 offset into `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

const AT_POSITION = / (?:in JSON )?at position (\d+).*$/s;
/** V8's "Unexpected token 'x', "<source or excerpt>" is not valid JSON" names no position. */
const WITH_EXCERPT = /^(Unexpected token '.*?'), (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s;

/** Whether JSON.parse reads `prefix` as the start of some valid JSON text (no error before its end). */
function viablePrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = (error as Error).message;
    if (message.startsWith('Unexpected end of JSON input')) return true;
    const at = AT_POSITION.exec(message);
    return at !== null && Number(at[1]) >= prefix.length;
  }
}

/**
 * The offset of JSON.parse's first error in `text`: the end of the longest prefix that is still the
 * start of valid JSON (an error inside a prefix stays in every longer one, so this is a binary search).
 */
function errorOffset(text: string): number {
  let lo = 0; // viable
  let hi = text.length; // not viable (the whole text failed)
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (viablePrefix(text.slice(0, mid))) lo = mid;
    else hi = mid;
  }
  return hi - 1;
}

/**
 * JSON.parse's error for `text` said with a line and column instead of V8's character position or
 * its excerpt of the text: "Expected ',' or '}' after property value at line 3, column 8".
 */
export function jsonSyntaxMessage(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const at = AT_POSITION.exec(message);
  const excerpt = WITH_EXCERPT.exec(message);
  if (!at && !excerpt) return message;
  const offset = at ? Number(at[1]) : errorOffset(text);
  const { line, column } = lineColumn(text, offset);
  const reason = at ? message.slice(0, at.index) : (excerpt as RegExpExecArray)[1];
  return `${reason} at line ${line}, column ${column}`;
}
