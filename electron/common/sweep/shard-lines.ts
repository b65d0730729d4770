import { InputError } from '../errors.js';
import { nonFiniteReplacer } from '../report/json-number.js';
import { BoundedLines, MAX_JSON_LINE } from '../text/bounded-lines.js';
import { SweepCase, SweepHeader } from './sweep-case.js';

/** A shard file read back: its header, its complete case lines, and where the complete part ends. */
export interface ShardLines {
  header: SweepHeader;
  cases: SweepCase[];
  /** Bytes (UTF-8) of the header and the complete case lines; anything after is a torn last line. */
  completeBytes: number;
  /** True when the file ends in a line cut short (a run killed mid-write): it is not counted. */
  torn: boolean;
}

/** One case as a shard line (non-finite numbers as "NaN"/"Infinity" strings, as in reports). */
export function caseLine(c: SweepCase): string {
  return JSON.stringify(c, nonFiniteReplacer) + '\n';
}

export function headerLine(h: SweepHeader): string {
  return JSON.stringify(h) + '\n';
}

/**
 * Parses a shard file's text. Only the last line may be broken (no newline, or not a whole JSON
 * object): that is what an interrupted write leaves, and it is reported as `torn`. A broken line
 * elsewhere, or a header that is not one, is refused with `file:line`.
 */
export function parseShardLines(text: string, file: string): ShardLines {
  const lines = new BoundedLines(MAX_JSON_LINE, (n, limit) => new InputError(`${file}:${n}: line is longer than ${limit} characters (the limit of a shard line; a case line is a few kB)`, `${file}:${n}`));
  const encoder = new TextEncoder();
  let completeBytes = 0;
  let header: SweepHeader | undefined;
  const cases: SweepCase[] = [];
  let torn = false;
  /** One complete line (ended by "\n"); `last` when nothing follows it. False when it is the torn last line. */
  const take = (line: string, i: number, last: boolean): boolean => {
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last && i > 0) return false;
      throw new InputError(`${where}: not a JSON line (a shard file holds a header line and one JSON object per case)`, where);
    }
    if (i === 0) {
      const parsed = SweepHeader.safeParse(value);
      if (!parsed.success) throw new InputError(`${where}: not a sweep shard header (${issueText(parsed.error.issues[0])})`, where);
      header = parsed.data;
    } else {
      const parsed = SweepCase.safeParse(value);
      if (!parsed.success) throw new InputError(`${where}: not a sweep case line (${issueText(parsed.error.issues[0])})`, where);
      cases.push(parsed.data);
    }
    completeBytes += encoder.encode(line).length + 1;
    return true;
  };
  // Each complete line is taken once the next is known, so the last one knows it is last.
  let held: string | undefined;
  for (const line of lines.push(text)) {
    if (held !== undefined) take(held, lines.count - 2, false);
    held = line;
  }
  // After the final "\n" what is left is "", the mark of a complete last line.
  const unterminated = lines.end();
  if (held !== undefined && !take(held, lines.count - 2, unterminated === '')) torn = true;
  if (unterminated !== '') torn = true;
  if (!header) throw new InputError(`${file}: empty, no sweep shard header (was the run stopped before its first line?)`, file);
  return { header, cases, completeBytes, torn };
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
