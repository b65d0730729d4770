import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCorpus } from '../../../../electron/common/sweep/corpus.js';
import { parseShardLines } from '../../../../electron/common/sweep/shard-lines.js';
import { BoundedLines, MAX_JSON_LINE } from '../../../../electron/common/text/bounded-lines.js';
import { readTrace } from '../../../../electron/common/trace/read-trace.js';
import { writeTrace } from '../../../../electron/common/trace/write-trace.js';
import { readTraceFile } from '../../../../electron/engine/comparison/stream-trace.js';
import { header, makeSteps } from '../forensics/synthetic-trace.js';

const dir = mkdtempSync(join(tmpdir(), 'bounded-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('BoundedLines', () => {
  it('splits any text cut into any pieces as String.split("\\n") does (300 random texts and cuts)', () => {
    const next = random(38);
    for (let round = 0; round < 300; round++) {
      const chars = Array.from({ length: Math.floor(next() * 60) }, () => 'ab\n\r{'[Math.floor(next() * 5)]);
      const text = chars.join('');
      const lines = new BoundedLines(1000, () => new Error('never'));
      const got: string[] = [];
      for (let at = 0; at < text.length; ) {
        const to = Math.min(text.length, at + 1 + Math.floor(next() * 8));
        got.push(...lines.push(text.slice(at, to)));
        at = to;
      }
      got.push(lines.end());
      expect(got).toEqual(text.split('\n'));
      expect(lines.count).toBe(got.length);
    }
  });

  it('refuses the line that passes the limit as soon as its unfinished part does, naming its number; one at the limit passes', () => {
    const lines = new BoundedLines(4, (n, limit) => new Error(`line ${n} over ${limit}`));
    expect([...lines.push('abcd\nab')]).toEqual(['abcd']);
    // The third character of the second line arrives: 2 + 3 > 4, refused before "\n" is seen.
    expect(() => [...lines.push('cde')]).toThrow('line 2 over 4');
  });
});

// Every JSON-lines reader, one row each: the same limit, refused at the same line, in the reader's own words.
describe('every JSON-lines reader refuses a line past MAX_JSON_LINE, naming file and line', () => {
  const long = `{"x":"${'a'.repeat(MAX_JSON_LINE)}"}`;
  const trace = writeTrace(header(4), makeSteps(2, 4)).trimEnd().split('\n');
  const traceText = [trace[0], long, trace[2]].join('\n');
  const shardHeader = JSON.stringify({ schema: 'nope' });
  const rows: [string, () => unknown, RegExp][] = [
    ['readTrace (text held by the studio)', () => readTrace(traceText, 't.jsonl'), /^t\.jsonl:2: line is longer than 1000000 characters/],
    [
      'readTraceFile (a file, streamed)',
      () => {
        const file = join(dir, 'long.jsonl');
        writeFileSync(file, traceText);
        return readTraceFile(file);
      },
      /long\.jsonl:2: line is longer than 1000000 characters/,
    ],
    ['parseShardLines (sweep shard)', () => parseShardLines(`${shardHeader}\n${long}\n`, 's.jsonl'), /^s\.jsonl:2: line is longer than 1000000 characters/],
    ['parseCorpus (corpus)', () => parseCorpus(`{"id":"a","text":"hi"}\n${long}\n`, 'c.jsonl'), /^c\.jsonl:2: line is longer than 1000000 characters/],
  ];
  it.each(rows)('%s', async (_name, read, message) => {
    const error = await (async () => read())().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(message);
  });

  it('takes a trace line of exactly the limit (refused then for what it holds, not its length)', () => {
    const atLimit = `{"step":1,"codes":[1,2,3,4],"x":"${'a'.repeat(MAX_JSON_LINE - 40)}"}`.padEnd(MAX_JSON_LINE, ' ');
    expect(atLimit.length).toBe(MAX_JSON_LINE);
    expect(() => readTrace([trace[0], atLimit].join('\n'), 't.jsonl')).not.toThrow(/longer than/);
  });
});
