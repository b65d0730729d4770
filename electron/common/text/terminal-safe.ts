/** C0 controls but tab and newline, DEL and the C1 controls (U+0080–U+009F: 8-bit CSI among them). */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` as it may reach a terminal: every control character that could move the cursor, clear the
 * screen or start an escape sequence (ESC[2J in an engine name, a CR that overwrites a line) written as
 * a visible `\uXXXX` escape; tab and newline stay. Every CLI printer goes through this (cli/print.ts), so
 * what a file holds is shown, never obeyed. JSON text stays valid JSON (such characters only stand inside
 * its strings, where `\uXXXX` is the same character).
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
