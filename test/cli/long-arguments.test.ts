import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runParity } from './run-parity.js';

// Issue 27 item 2: `parity synth --text "<32,000 characters>"` died with SIGSEGV (exit 139, no message):
// ONNX Runtime's one-time set-up walks /proc/self/cmdline recursively, and its depth grows with the
// command line. Every command here carries about 1 MB of arguments (Linux caps one argument at 128 KiB,
// so ten of 100 KB) and must end with its own exit status and at most one line on stderr.

const KB100 = 100_000;
const zeros = '0'.repeat(KB100); // a valid --seed (0), 100 KB long
const tenSeeds = Array.from({ length: 10 }, () => ['--seed', zeros]).flat();
const dir = mkdtempSync(join(tmpdir(), 'long-arguments-'));
const argBytes = (args: string[]) => args.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0);

function expectOneLineEnd(run: { status: number | null; signal: NodeJS.Signals | null; stderr: string }, status: number): void {
  expect(run.signal).toBeNull();
  expect(run.status).toBe(status);
  expect(run.stderr.trim().split('\n').filter((l) => l !== '').length).toBeLessThanOrEqual(1);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('about 1 MB of arguments: no native crash, the command answers as it would with short ones', () => {
  it('synth with ten 100 KB --seed values runs the engine and writes its WAV (exit 0)', async () => {
    const out = join(dir, 'seeds.wav');
    const args = ['synth', '--text', 'hi', '--out', out, ...tenSeeds];
    expect(argBytes(args)).toBeGreaterThan(1_000_000);
    const run = await runParity(args, { timeoutMs: 90_000 });
    expectOneLineEnd(run, 0);
    expect(statSync(out).size).toBeGreaterThan(44);
  }, 120_000);

  it('synth with a 100 KB --text and 900 KB of seeds: exit 2, the bundle limit named', async () => {
    const run = await runParity(['synth', '--text', 'a'.repeat(KB100), '--out', join(dir, 'long-text.wav'), ...tenSeeds.slice(2)], { timeoutMs: 90_000 });
    expectOneLineEnd(run, 2);
    expect(run.stderr).toMatch(/^parity synth: text: 100000 UTF-8 bytes, over this bundle's limit of 128 \(bundle\.json text\.maxBytes\)\n$/);
  }, 120_000);

  it('gate over 300 folders of 3.4 KB names each (1 MB): exit 2, one line', async () => {
    const folders = Array.from({ length: 300 }, (_, i) => join(dir, `${i}-${'f'.repeat(200)}/`.repeat(17)));
    expect(argBytes(folders)).toBeGreaterThan(1_000_000);
    const run = await runParity(['gate', ...folders], { timeoutMs: 90_000 });
    expectOneLineEnd(run, 2);
  }, 120_000);
});
