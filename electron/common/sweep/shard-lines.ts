import { InputError } from '../errors.js';
import { nonFiniteReplacer } from '../report/json-number.js';
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
  const lines = text.split('\n');
  // After the final "\n" split leaves "", the mark of a complete last line.
  const unterminated = lines.pop() ?? '';
  const encoder = new TextEncoder();
  let completeBytes = 0;
  let header: SweepHeader | undefined;
  const cases: SweepCase[] = [];
  let torn = unterminated !== '';
  for (const [i, line] of lines.entries()) {
    const where = `${file}:${i + 1}`;
    const last = i === lines.length - 1 && unterminated === '';
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last && i > 0) {
        torn = true;
        break;
      }
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
  }
  if (!header) throw new InputError(`${file}: empty, no sweep shard header (was the run stopped before its first line?)`, file);
  return { header, cases, completeBytes, torn };
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
