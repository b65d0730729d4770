import { describe, expect, it } from 'vitest';
import { MAX_SEEDS, parseCorpus, parseSeedList } from '../../../../electron/common/sweep/corpus.js';
import { planCases, shardCases } from '../../../../electron/common/sweep/plan.js';

describe('parseCorpus', () => {
  it('reads one prompt per line, skipping blank lines, with ids from the line numbers', () => {
    expect(parseCorpus('Hello.\r\n\nGood day.\n', 'c.txt')).toEqual([
      { id: 'line-1', text: 'Hello.', line: 1 },
      { id: 'line-3', text: 'Good day.', line: 3 },
    ]);
  });

  it('reads JSON Lines with ids and optional seeds', () => {
    expect(parseCorpus('{"id":"a","text":"Hi."}\n{"id":7,"text":"Yo.","seed":3}\n', 'c.jsonl')).toEqual([
      { id: 'a', text: 'Hi.', line: 1 },
      { id: '7', text: 'Yo.', seed: 3, line: 2 },
    ]);
  });

  it('ignores a byte-order mark before the first line', () => {
    expect(parseCorpus('\uFEFF{"id":"a","text":"Hi."}\n', 'c.jsonl')).toEqual([{ id: 'a', text: 'Hi.', line: 1 }]);
    expect(parseCorpus('\uFEFFHello.\n', 'c.txt')).toEqual([{ id: 'line-1', text: 'Hello.', line: 1 }]);
  });

  it.each([
    ['{"id":"a","text":"Hi."}\n{"id":"b","text":\n', 'c.jsonl:2: not valid JSON'],
    ['{"id":"a","text":"Hi."}\n{"id":"a","text":"Ho."}\n', 'c.jsonl:2: id "a" is already used on line 1'],
    ['{"id":"a","txt":"Hi."}\n', 'c.jsonl:1: unknown field "txt"'],
    ['{"id":"a b","text":"Hi."}\n', 'c.jsonl:1: "id" must be a name'],
    ['{"id":"a","text":"Hi.","seed":-1}\n', 'c.jsonl:1: "seed" must be an integer'],
    ['{"id":"a","text":"   "}\n', 'c.jsonl:1: the prompt is empty'],
    ['{"id":"a","text":"Hi."}\n[1]\n', 'c.jsonl:2: expected an object'],
    [`ok\n${'x'.repeat(2001)}\n`, 'c.jsonl:2: the prompt is longer than 2000 characters'],
    ['\n\n', 'c.jsonl: the corpus has no prompts'],
  ])('refuses a bad corpus with file:line (%#)', (text, message) => {
    expect(() => parseCorpus(text, 'c.jsonl')).toThrow(message);
  });
});

describe('parseSeedList', () => {
  it('reads integers and ranges', () => {
    expect(parseSeedList('0,1,5-7')).toEqual([0, 1, 5, 6, 7]);
  });
  it.each(['', '1,,2', '3-1', '-1', 'a', '1,1', '4294967296'])('refuses "%s"', (text) => {
    expect(() => parseSeedList(text)).toThrow('--seeds');
  });

  // Issue 27 item 6: the duplicate search was quadratic and the ranges unbounded in number, so a long
  // list ran past 90 s (ignoring SIGTERM, which waits for the event loop). Bounds: one sweep of the
  // whole list, MAX_SEEDS seeds at most, counted before a range is expanded.
  it('reads MAX_SEEDS single seeds (about 590 kB of text) in well under a second', () => {
    const text = Array.from({ length: MAX_SEEDS }, (_, i) => String(i)).join(',');
    const started = performance.now();
    expect(parseSeedList(text)).toHaveLength(MAX_SEEDS);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['one seed past MAX_SEEDS', `0-${MAX_SEEDS - 1},${MAX_SEEDS}`, `more than ${MAX_SEEDS} seeds (at "${MAX_SEEDS}")`],
    ['20,000 ranges of 4,294,967,295 seeds', Array.from({ length: 20_000 }, () => '0-4294967295').join(','), `more than ${MAX_SEEDS} seeds (at "0-4294967295")`],
    ['a duplicate at the end of 100,000', `${Array.from({ length: MAX_SEEDS - 1 }, (_, i) => String(i)).join(',')},5`, 'seed 5 is given twice'],
  ])('%s: refused at once, quoting at most 60 characters of the list', (_what, text, words) => {
    const started = performance.now();
    let message = '';
    try {
      parseSeedList(text);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(words);
    expect(message.length).toBeLessThan(250);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('planCases and shardCases', () => {
  const prompts = parseCorpus('{"id":"a","text":"A."}\n{"id":"b","text":"B.","seed":9}\n{"id":"c","text":"C."}\n', 'c.jsonl');
  const cases = planCases(prompts, [0, 1]);

  it('crosses prompts with seeds in corpus order; a prompt with its own seed runs that seed only', () => {
    expect(cases.map((c) => [c.index, c.key])).toEqual([
      [0, 'a@0'],
      [1, 'a@1'],
      [2, 'b@9'],
      [3, 'c@0'],
      [4, 'c@1'],
    ]);
  });

  it('splits the cases into disjoint shards that together hold every case once', () => {
    const shards = [1, 2, 3].map((index) => shardCases(cases, { index, count: 3 }).map((c) => c.index));
    expect(shards).toEqual([[0, 3], [1, 4], [2]]);
  });
});
