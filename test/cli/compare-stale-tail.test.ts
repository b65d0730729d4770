import { describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const TEXT = 'Hello world, this is a parity test.'; // 32 frames: stream spans 5, 10, 13, 13, 13, 13, 10

describe('parity compare: bucket=K with fault stale-tail (docs/forensics.md "Bucket padding")', () => {
  it('names the seams at exactly the boundaries after a padded chunk (bucket=13: frames 6 and 11) and the vocoder stage', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph,vocoder=stream', '--b', 'graph,vocoder=stream,bucket=13,fault=stale-tail'], { timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('First divergence: step 6, stage vocoder, vocoder frame 6, t = 0.400 s');
    const lines = run.stdout.split('\n');
    const head = lines.findIndex((l) => l.startsWith('Seams at vocoder chunk boundaries'));
    expect(lines[head]).toMatch(/: 2 of 6 boundaries$/);
    expect(lines[head + 1]).toMatch(/^ {2}t = 0\.400 s \(sample 9600, frame 6\): B − A flat in the 20 ms before/);
    expect(lines[head + 2]).toMatch(/^ {2}t = 0\.800 s \(sample 19200, frame 11\): B − A flat in the 20 ms before/);
    expect(lines[head + 3]).not.toMatch(/^ {2}t = /);
  });

  it('refuses bucket=K without vocoder=stream in one line, exit 2', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph', '--b', 'graph,bucket=16'], { timeoutMs: 60_000 });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('parity compare: profile "graph,bucket=16": bucket=K needs vocoder=stream (it pads the streaming vocoder\'s chunks)');
  });
});
