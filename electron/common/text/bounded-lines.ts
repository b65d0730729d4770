/**
 * Longest line any JSON-lines reader takes, in characters (traces, sweep shards, corpora; the Python writer
 * and reader keep the same limit): a trace step with per-codebook stats is ~2 kB and a case line a few kB,
 * so this only stops runaway input.
 */
export const MAX_JSON_LINE = 1_000_000;

/**
 * Lines of a text that arrives in pieces (a file read a chunk at a time, or a whole string), split at "\n"
 * (a "\r" before it stays on the line), each refused by `tooLong` once it passes `limit` characters: the
 * refusal comes as soon as the unfinished part is over the limit, before it is held, so a reader's memory
 * is its chunk plus `limit` whatever a line's length. Every JSON-lines reader goes through this: traces,
 * sweep shards, corpora.
 */
export class BoundedLines {
  private carry = '';
  /** Lines completed so far; the line being read is number `count + 1` (1-based). */
  count = 0;

  constructor(
    readonly limit: number,
    private readonly tooLong: (line: number, limit: number) => Error,
  ) {}

  /** The lines `piece` completes (with what earlier pieces left unfinished), in order. */
  *push(piece: string): Generator<string> {
    for (let start = 0; ; ) {
      const newline = piece.indexOf('\n', start);
      const end = newline < 0 ? piece.length : newline;
      if (this.carry.length + (end - start) > this.limit) throw this.tooLong(this.count + 1, this.limit);
      if (newline < 0) {
        this.carry += piece.slice(start);
        return;
      }
      const line = this.carry + piece.slice(start, newline);
      this.carry = '';
      this.count++;
      yield line;
      start = newline + 1;
    }
  }

  /** The last line (after the last "\n"; "" when the text ended with one), counted as a line. */
  end(): string {
    const line = this.carry;
    this.carry = '';
    this.count++;
    return line;
  }
}

/** The lines of a whole string, as BoundedLines splits and bounds them (the last one too, "" after a final "\n"). */
export function* boundedLinesOf(text: string, limit: number, tooLong: (line: number, limit: number) => Error): Generator<string> {
  const lines = new BoundedLines(limit, tooLong);
  yield* lines.push(text);
  yield lines.end();
}
