import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { caseKey } from '../../electron/common/sweep/sweep-case.js';
import { parseShardLines } from '../../electron/common/sweep/shard-lines.js';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-sweep-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const corpus = join(dir, 'corpus.txt');
// Near the demo bundle's 128-byte limit, so each case runs about 100 frames (about half a second here)
// and Ctrl-C lands in the middle of the corpus.
const LONG = ' is a long sentence so that the demo talker runs many frames before it stops.';
writeFileSync(corpus, Array.from({ length: 8 }, (_, i) => `Prompt number ${i}${LONG}`).join('\n'));
const sweepArgs = (out: string) => ['sweep', '--corpus', corpus, '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--out', out];
const shardFile = (out: string) => join(out, 'shard-001-of-1.jsonl');

describe('parity sweep interrupted and run again', () => {
  it('leaves complete lines on Ctrl-C, then resumes without duplicates, redoing a torn last line', async () => {
    const out = join(dir, 'resumed');
    const stopped = await runParity(sweepArgs(out), {
      timeoutMs: 60_000,
      // Ctrl-C's signal once two cases are reported, so the run stops in the middle of the corpus.
      whileRunning: (child) => {
        let text = '';
        let sent = false;
        child.stderr?.on('data', (d: Buffer) => {
          text += d.toString();
          if (!sent && (text.match(/^sweep: \d+\/8 /gm) ?? []).length >= 2) {
            sent = true;
            child.kill('SIGINT');
          }
        });
        return () => undefined;
      },
    });
    expect(stopped.status).toBe(130);
    expect(stopped.stderr).toMatch(/parity sweep: interrupted \(SIGINT\); \d+ of 8 cases are in .* \(complete lines only\); run the same command again to resume/);
    const partial = parseShardLines(readFileSync(shardFile(out), 'utf8'), 'shard');
    expect(partial.torn).toBe(false);
    expect(partial.cases.length).toBeGreaterThanOrEqual(2);
    expect(partial.cases.length).toBeLessThan(8);

    // What a kill during a write would leave: the start of a line with no newline.
    appendFileSync(shardFile(out), '{"index":7,"id":"line-8","seed":0,"verd');
    const resumed = await runParity(sweepArgs(out), { timeoutMs: 60_000 });
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toContain(`${partial.cases.length} already there (resuming)`);
    expect(resumed.stderr).toContain('ended in a line cut short by an interrupted write; it was removed and that case runs again');
    const done = parseShardLines(readFileSync(shardFile(out), 'utf8'), 'shard');
    expect(done.torn).toBe(false);
    const keys = done.cases.map(caseKey);
    expect(new Set(keys).size).toBe(8);
    expect(keys).toHaveLength(8);

    // And the result is the uninterrupted run's, byte for byte.
    const fresh = join(dir, 'fresh');
    expect((await runParity(sweepArgs(fresh), { timeoutMs: 60_000 })).status).toBe(0);
    const merge = async (from: string, to: string) => expect((await runParity(['sweep', 'merge', from, '--out', to, '--worst', '0'])).status).toBe(0);
    await merge(out, join(dir, 'm1'));
    await merge(fresh, join(dir, 'm2'));
    expect(readFileSync(join(dir, 'm1', 'sweep.json'), 'utf8')).toBe(readFileSync(join(dir, 'm2', 'sweep.json'), 'utf8'));
  }, 120_000);

  it('runs nothing when every case is already written, and refuses a folder of a different sweep', async () => {
    const out = join(dir, 'fresh');
    const again = await runParity(sweepArgs(out), { timeoutMs: 30_000 });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('wrote 0 cases to');
    expect(again.stdout).toContain('(8 already there)');
    const other = await runParity(['sweep', '--corpus', corpus, '--a', 'graph', '--b', 'eager', '--out', out], { timeoutMs: 30_000 });
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('was written by a different sweep (b: "graph,fault=stale-feedback@2" there, "eager" now)');
  }, 60_000);
});
