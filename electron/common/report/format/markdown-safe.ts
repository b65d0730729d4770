/**
 * Markdown built from strings the tool does not control (a prompt, a trace header's engine and
 * profile, a corpus id, an ONNX node name, an error message): GitHub, GitLab and most viewers render
 * raw HTML inside Markdown, so `<`, `>` and `&` become entities in prose and table cells (they render
 * as the characters), and a code block's fence is longer than any run of backticks in its text, so no
 * text can close it early.
 */
export function escapeHtmlInMarkdown(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A fenced code block holding `text` verbatim, whatever backticks it contains. */
export function codeBlock(text: string, lang = ''): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text, fence];
}

/** Inline code holding `text` verbatim: a backtick run longer than any inside it, padded when it starts or ends with one. */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}
