import { terminalSafe } from '../common/text/terminal-safe.js';

/**
 * The CLI's printers: every line of text it prints (summaries, tables, warnings, errors, JSON) goes out
 * through terminalSafe, since much of it quotes file content (engine and module names, paths, messages).
 * They return what stream.write returns (false: wait for 'drain').
 */
export const printOut = (text: string): boolean => process.stdout.write(terminalSafe(text));
export const printErr = (text: string): boolean => process.stderr.write(terminalSafe(text));

/** The CLI's own cursor and line controls on stderr (a progress line's "\r", clear to end of line), never file content. */
export const controlErr = (sequence: string): boolean => process.stderr.write(sequence);
