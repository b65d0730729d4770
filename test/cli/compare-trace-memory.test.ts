import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../electron/cli/bench/trace-file.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-trace-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('compare-trace memory', () => {
  // A heap cap, not a timing: a reader that held the traces or their rows would run out of it. The
  // whole-trace reader (before the streamed one) aborted here with a V8 heap-limit crash (exit 134).
  it('compares a 40,000-step pair and writes its report.json in a 64 MB heap', async () => {
    const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
    await writeTrace(a, 40_000, 40_001);
    await writeTrace(b, 40_000, 20_001);
    const run = await runParity(['compare-trace', a, b, '--json'], { env: { NODE_OPTIONS: '--max-old-space-size=64' }, timeoutMs: 180_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout) as { divergence: { firstStep: number; steps: unknown[] } };
    expect(report.divergence.firstStep).toBe(20_001);
    expect(report.divergence.steps).toHaveLength(40_000);
  }, 200_000);

  // Issue 38: a 200 MB line under the 256 MiB file cap was refused only after 2.31 GB of RSS and 28.6 s
  // (the limit was checked once the line was held). The reader now refuses at the limit: the bound
  // stated in docs/trace-format.md is 100 MB of RSS over the same command on a small pair.
  it('refuses a trace whose one line is 200 MB within 100 MB of RSS over a small pair, in one line', async () => {
    const [a, b, big] = [join(dir, 'small-a.jsonl'), join(dir, 'small-b.jsonl'), join(dir, 'long-line.jsonl')];
    await writeTrace(a, 10, 11);
    await writeTrace(b, 10, 5);
    const fd = openSync(big, 'w');
    writeSync(fd, '{"schema":"tts-parity-trace/1","engine":"x","q":4,"frameRate":12.5,"sampleRate":24000}\n{"step":1,"x":"');
    const block = Buffer.alloc(1 << 20, 'a');
    for (let i = 0; i < 200; i++) writeSync(fd, block);
    writeSync(fd, '"}\n');
    closeSync(fd);
    const small = await runParity(['compare-trace', a, b, '--json'], { timeoutMs: 60_000 });
    expect(small.status).toBe(0);
    const started = Date.now();
    const run = await runParity(['compare-trace', big, b], { timeoutMs: 60_000 });
    const seconds = (Date.now() - started) / 1000;
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`parity compare-trace: ${big}:2: line is longer than 1000000 characters (the limit of a trace line; docs/trace-format.md)\n`);
    expect(run.maxRssMiB - small.maxRssMiB).toBeLessThan(100);
    // Not a timing claim (shared cores): the figures for the record.
    console.log(JSON.stringify({ longLineBytes: 200 * 2 ** 20, rssGrowthMiB: +(run.maxRssMiB - small.maxRssMiB).toFixed(1), seconds }));
  }, 120_000);
});
