import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCorpus } from '../../../../electron/common/sweep/corpus.js';
import { parseShardLines } from '../../../../electron/common/sweep/shard-lines.js';
import { BoundedLines, MAX_JSON_LINE } from '../../../../electron/common/text/bounded-lines.js';
import { readTrace } from '../../../../electron/common/trace/read-trace.js';
import { writeTrace } from '../../../../electron/common/trace/write-trace.js';
import { readTraceFile } from '../../../../electron/engine/comparison/stream-trace.js';
import { readCorpusFile } from '../../../../electron/host/sweep/read-corpus.js';
import { readShardFolders } from '../../../../electron/host/sweep/read-shards.js';
import { openShardFile, shardFileName } from '../../../../electron/host/sweep/shard-file.js';
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

// Corpus and shard files are streamed through the line reader: a 1.5 GiB file (sparse, so it costs nothing
// here) whose second line never ends is refused at that line's limit after about 1 MB read. Read whole
// first, as they were, a shard was refused for its size (past 512 MiB) and a corpus was held whole.
describe('corpus and shard files are read a piece at a time', () => {
  const sparse = (path: string, firstLine = '{"schema":"tts-parity-sweep/1"}') => {
    writeFileSync(path, `${firstLine}\n`);
    truncateSync(path, 1.5 * 2 ** 30);
    return path;
  };
  const shardDir = (name: string) => {
    const folder = join(dir, name);
    mkdirSync(folder);
    return sparse(join(folder, shardFileName({ index: 1, count: 1 })));
  };
  const shardWords = 'the limit of a shard line; a case line is a few kB';
  const rows: [string, () => string, (path: string) => unknown, string][] = [
    ['a corpus (sweep: readCorpusFile)', () => sparse(join(dir, 'corpus.jsonl'), '{"id":"a","text":"Hi."}'), (path) => readCorpusFile(path), 'the limit of a corpus line'],
    ['a shard file (sweep merge: readShardFolders)', () => shardDir('merge'), () => readShardFolders([join(dir, 'merge')]), shardWords],
    [
      'a shard file resumed (sweep: openShardFile)',
      () => shardDir('resume'),
      async () => (await openShardFile(join(dir, 'resume'), { schema: 'tts-parity-sweep/1', shard: { index: 1, count: 1 } } as never)).close(),
      shardWords,
    ],
  ];
  it.each(rows)('%s', async (_name, make, read, words) => {
    const path = make();
    const before = process.memoryUsage().rss;
    const error = await (async () => read(path))().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(`${path}:2: line is longer than ${MAX_JSON_LINE} characters (${words})`);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 2 ** 20);
  });
});
