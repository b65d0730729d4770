import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

const dir = mkdtempSync(join(tmpdir(), 'parity-epipe-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs parity with stdout a pipe whose reading end is closed at once, as `parity ... | head -0` does. */
function runWithClosedStdout(args: string[]): Promise<{ status: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/parity.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stderr }));
  });
}

describe('stdout closed by the reader (EPIPE)', () => {
  beforeAll(async () => {
    for (const [name, profile] of [['a', 'eager'], ['b', 'graph,fault=stale-feedback@2']]) {
      const run = await runParity(['synth', '--text', 'hello there', '--profile', profile, '--out', join(dir, `${name}.wav`), '--trace', join(dir, `${name}.jsonl`)], { timeoutMs: 60_000 });
      expect(run.status, run.stderr).toBe(0);
    }
  }, 120_000);

  it('compare-trace --out: exits 0, no stack, and the --out folder is complete', async () => {
    const out = join(dir, 'X');
    const run = await runWithClosedStdout(['compare-trace', join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), '--wav-a', join(dir, 'a.wav'), '--wav-b', join(dir, 'b.wav'), '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['a.jsonl', 'a.wav', 'b.jsonl', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png', 'steps.png']);
  });

  it('compare-trace --fail-on diverged keeps its own status 1 (the verdict), not an EPIPE crash', async () => {
    const run = await runWithClosedStdout(['compare-trace', join(dir, 'a.jsonl'), join(dir, 'b.jsonl'), '--fail-on', 'diverged']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
  });

  // Issue 27 item 6: past the pipe's buffer, the writer waits for 'drain', which never comes: the wait
  // ended in "internal error … write EPIPE" (exit 3). A 1,500-step trace gives about 1 MB of JSON.
  it.each([['--json'], ['--json', '--fail-on', 'diverged']])('compare-trace %s on 1,500 steps (about 1 MB of output): exit 0, nothing on stderr', async (...flags) => {
    const [header, ...steps] = readFileSync(join(dir, 'a.jsonl'), 'utf8').trim().split('\n');
    const long = [header, ...Array.from({ length: 1500 }, (_, i) => JSON.stringify({ ...JSON.parse(steps[i % steps.length]), step: i + 1 }))];
    writeFileSync(join(dir, 'long.jsonl'), long.join('\n') + '\n');
    const run = await runWithClosedStdout(['compare-trace', join(dir, 'long.jsonl'), join(dir, 'long.jsonl'), ...flags]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('synth --json: exits 0 with nothing on stderr', async () => {
    const run = await runWithClosedStdout(['synth', '--text', 'hi', '--out', join(dir, 'c.wav'), '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
