import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../ensure-built.js';

beforeAll(ensureBuilt, 120_000);

// One detached ArrayBuffer anywhere in a process (WebAssembly.Memory.grow detaches the old buffer) makes
// V8 check for detachment in every typed-array loop from then on: the analysis' loops ran 20–50 % slower
// (docs/performance.md). V8's --trace-protector-invalidation names the moment it happens, so a comparison
// that detaches one, on the calling thread or the spectral worker, fails here.
const dist = (...path: string[]) => pathToFileURL(join(process.cwd(), 'dist', 'electron', ...path)).href;
const script = `
const { compareSignals } = await import('${dist('common', 'analysis', 'compare.js')}');
const { measureLoudness } = await import('${dist('common', 'analysis', 'loudness.js')}');
const { SpectralThread } = await import('${dist('host', 'spectral', 'spectral-thread.js')}');
const { speechLikeSignal, degradedCopy } = await import('${dist('cli', 'bench', 'bench-signals.js')}');
const thread = new SpectralThread();
// Longer takes after shorter ones: every kernel memory has to become larger.
for (const seconds of [2, 20, 60]) {
  const a = speechLikeSignal(seconds, 24000, 1);
  const b = degradedCopy(a, 37, 0.8, 1e-4);
  await compareSignals(a, b, 24000, { spectral: thread.run });
  await compareSignals(a, b, 24000);
  await measureLoudness([a, b], 24000);
}
// Higher rates: larger frames, mel plans and K-weighting segments.
for (const rate of [48000, 192000]) {
  const a = speechLikeSignal(5, rate, 2);
  await compareSignals(a, degradedCopy(a, 11, 0.5, 1e-3), rate, { spectral: thread.run });
  await measureLoudness([a], rate);
}
await thread.close();
console.log('compared');
`;

describe('the analysis detaches no ArrayBuffer', () => {
  it('compares growing pairs on this thread and on the spectral worker without invalidating the detaching protector of V8', () => {
    // A file, not -e: the worker inherits the process's flags, and --input-type is refused there.
    const dir = mkdtempSync(join(tmpdir(), 'no-detach-'));
    const file = join(dir, 'compare.mjs');
    writeFileSync(file, script);
    const run = spawnSync(process.execPath, ['--trace-protector-invalidation', file], { encoding: 'utf8' });
    rmSync(dir, { recursive: true, force: true });
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('ArrayBufferDetaching');
    expect(run.stdout).toContain('compared');
  }, 120_000);
});
