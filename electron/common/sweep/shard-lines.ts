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
  const reader = new ShardLinesReader(file);
  reader.push(text);
  return reader.end();
}

/** parseShardLines over text that arrives in pieces (a file read a chunk at a time), each line bounded as it comes. */
export class ShardLinesReader {
  private readonly lines: BoundedLines;
  private readonly encoder = new TextEncoder();
  private completeBytes = 0;
  private header: SweepHeader | undefined;
  private readonly cases: SweepCase[] = [];
  // Each complete line is taken once the next is known, so the last one knows it is last.
  private held: string | undefined;

  constructor(private readonly file: string) {
    this.lines = new BoundedLines(MAX_JSON_LINE, (n, limit) => new InputError(`${file}:${n}: line is longer than ${limit} characters (the limit of a shard line; a case line is a few kB)`, `${file}:${n}`));
  }

  /** Lines ended by "\n" so far: 0 while the header line is not whole yet. */
  get completeLines(): number {
    return this.lines.count;
  }

  push(piece: string): void {
    for (const line of this.lines.push(piece)) {
      if (this.held !== undefined) this.take(this.held, this.lines.count - 2, false);
      this.held = line;
    }
  }

  end(): ShardLines {
    // After the final "\n" what is left is "", the mark of a complete last line.
    const unterminated = this.lines.end();
    let torn = unterminated !== '';
    if (this.held !== undefined && !this.take(this.held, this.lines.count - 2, unterminated === '')) torn = true;
    if (!this.header) throw new InputError(`${this.file}: empty, no sweep shard header (was the run stopped before its first line?)`, this.file);
    return { header: this.header, cases: this.cases, completeBytes: this.completeBytes, torn };
  }

  /** One complete line (ended by "\n"); `last` when nothing follows it. False when it is the torn last line. */
  private take(line: string, i: number, last: boolean): boolean {
    const where = `${this.file}:${i + 1}`;
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
      this.header = parsed.data;
    } else {
      const parsed = SweepCase.safeParse(value);
      if (!parsed.success) throw new InputError(`${where}: not a sweep case line (${issueText(parsed.error.issues[0])})`, where);
      this.cases.push(parsed.data);
    }
    this.completeBytes += this.encoder.encode(line).length + 1;
    return true;
  }
}

function issueText(issue: { path: PropertyKey[]; message: string }): string {
  return issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}
