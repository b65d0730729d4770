import { appendFileSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFromReport } from '../../../../electron/common/sweep/case-from-report.js';
import { caseLine, parseShardLines } from '../../../../electron/common/sweep/shard-lines.js';
import { SWEEP_SCHEMA, type SweepHeader } from '../../../../electron/common/sweep/sweep-case.js';
import { openShardFile, shardFileName } from '../../../../electron/host/sweep/shard-file.js';

const HEADER: SweepHeader = {
  schema: SWEEP_SCHEMA,
  mode: 'profiles',
  a: 'graph',
  b: 'eager',
  bundle: 'demo',
  corpusSha256: 'b'.repeat(64),
  totalCases: 6,
  shard: { index: 2, count: 3 },
  planned: ['x@0', 'y@0'],
};

const line = (index: number, id: string) =>
  caseFromReport({ index, id, seed: 0 }, { verdict: 'identical', divergence: { firstStep: null, stage: null, reconverges: false } }, 5);

describe('openShardFile', () => {
  it('names shard files so they sort in shard order', () => {
    expect(shardFileName({ index: 2, count: 3 })).toBe('shard-002-of-3.jsonl');
    expect(shardFileName({ index: 12, count: 1500 })).toBe('shard-0012-of-1500.jsonl');
  });

  it('starts a new file with the header, then resumes it: the cases written are known as done', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sweep-shard-')), 'out');
    const first = await openShardFile(dir, HEADER);
    expect(first.done.size).toBe(0);
    first.append(line(1, 'x'));
    first.close();
    const again = await openShardFile(dir, HEADER);
    expect([...again.done]).toEqual(['x@0']);
    expect(again.cutTornLine).toBe(false);
    again.append(line(4, 'y'));
    again.close();
    const read = parseShardLines(readFileSync(again.path, 'utf8'), again.path);
    expect(read.cases.map((c) => c.id)).toEqual(['x', 'y']);
  });

  it('cuts off a torn last line (an interrupted write) so that case runs again, leaving the rest intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shard-'));
    const f = await openShardFile(dir, HEADER);
    f.append(line(1, 'x'));
    f.close();
    const whole = readFileSync(f.path, 'utf8');
    appendFileSync(f.path, caseLine(line(4, 'y')).slice(0, 25));
    const again = await openShardFile(dir, HEADER);
    expect(again.cutTornLine).toBe(true);
    expect([...again.done]).toEqual(['x@0']);
    again.close();
    expect(readFileSync(f.path, 'utf8')).toBe(whole);
  });

  it('restarts a file that holds not even a whole header line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shard-'));
    writeFileSync(join(dir, shardFileName(HEADER.shard)), '{"schema":"tts-par');
    const f = await openShardFile(dir, HEADER);
    f.close();
    expect(parseShardLines(readFileSync(f.path, 'utf8'), f.path).header).toEqual(HEADER);
  });

  it('refuses a file written by a different sweep, naming the field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shard-'));
    (await openShardFile(dir, HEADER)).close();
    await expect(openShardFile(dir, { ...HEADER, b: 'graph,vocoder=stream' })).rejects.toThrow('was written by a different sweep (b: "eager" there, "graph,vocoder=stream" now)');
  });

  it('refuses a file holding a case this shard does not plan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shard-'));
    const f = await openShardFile(dir, HEADER);
    f.append(line(9, 'z'));
    f.close();
    await expect(openShardFile(dir, HEADER)).rejects.toThrow('holds case z@0, which this shard does not plan');
  });

  it('writes a new file through the one writer: a dangling link at its name is replaced, never written through', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shard-'));
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'sweep-elsewhere-')), 'created.jsonl');
    const path = join(dir, shardFileName(HEADER.shard));
    symlinkSync(elsewhere, path);
    const f = await openShardFile(dir, HEADER);
    f.append(line(1, 'x'));
    f.close();
    expect(existsSync(elsewhere)).toBe(false);
    expect(lstatSync(path).isFile()).toBe(true);
    expect(parseShardLines(readFileSync(path, 'utf8'), path).cases.map((c) => c.id)).toEqual(['x']);
    expect(readdirSync(dir)).toEqual([shardFileName(HEADER.shard)]);
  });

  it('refuses a FIFO at the name that reads as a torn header, in one line, without blocking', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-shard-'));
    execFileSync('mkfifo', [join(dir, shardFileName(HEADER.shard))]);
    await expect(openShardFile(dir, HEADER)).rejects.toThrow(/shard file to resume: not a regular file \(a FIFO \(named pipe\)\)$/);
  });
});
