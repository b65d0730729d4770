import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

  it('synth --json: exits 0 with nothing on stderr', async () => {
    const run = await runWithClosedStdout(['synth', '--text', 'hi', '--out', join(dir, 'c.wav'), '--json']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
