import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareSignals } from '../../../../electron/common/analysis/compare.js';
import { type FrameRange, frameSize, framesOfPair } from '../../../../electron/common/analysis/spectral.js';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import {
  claimSpectraArena,
  releaseSpectraArena,
  spectraMemory,
} from '../../../../electron/common/analysis/spectra-memory.js';
import { SpectralThread } from '../../../../electron/host/spectral/spectral-thread.js';
import { regressionCases } from '../../common/analysis/regression/compare-cases.js';
import { ensureBuilt } from '../ensure-built.js';

beforeAll(ensureBuilt, 120_000);

/** Whether this thread's shared spectra arena is free: a new claimant gets it (and gives it back). */
function arenaIsFree(): boolean {
  const probe = {};
  const free = claimSpectraArena(probe, 8, undefined).buffer === spectraMemory()?.buffer;
  releaseSpectraArena(probe);
  return free;
}

describe('compareSignals with the spectral distances on a worker thread', () => {
  it('writes the same report bytes as on one thread, for every regression pair', async () => {
    const thread = new SpectralThread();
    try {
      for (const c of regressionCases()) {
        const options = { maxLagMs: c.maxLagMs };
        const alone = stringifyReport(await compareSignals(c.a, c.b, c.sampleRate, options));
        const split = stringifyReport(
          await compareSignals(c.a, c.b, c.sampleRate, { ...options, spectral: thread.run }),
        );
        expect(split, c.name).toBe(alone);
      }
    } finally {
      await thread.close();
    }
  });

  it('gives each of several comparisons in flight at once its own numbers', async () => {
    const thread = new SpectralThread();
    try {
      const cases = regressionCases().slice(0, 4);
      const alone = await Promise.all(
        cases.map(async (c) =>
          stringifyReport(await compareSignals(c.a, c.b, c.sampleRate, { maxLagMs: c.maxLagMs })),
        ),
      );
      const together = await Promise.all(
        cases.map(async (c) =>
          stringifyReport(
            await compareSignals(c.a, c.b, c.sampleRate, { maxLagMs: c.maxLagMs, spectral: thread.run }),
          ),
        ),
      );
      together.forEach((report, i) => expect(report, cases[i].name).toBe(alone[i]));
    } finally {
      await thread.close();
    }
  });

  it('drops a cancelled job on both threads: later comparisons give the same bytes as on one thread', async () => {
    const thread = new SpectralThread();
    try {
      const [c, d] = regressionCases();
      const pair = {
        a: { signal: c.a, start: 0 },
        b: { signal: c.b, start: 0 },
        length: Math.min(c.a.length, c.b.length),
      };
      for (let i = 0; i < 3; i++) {
        const job = thread.run(c.sampleRate, undefined);
        job.add([pair]);
        expect(arenaIsFree()).toBe(false); // this thread's part holds it
        job.cancel();
        expect(arenaIsFree()).toBe(true);
      }
      const alone = stringifyReport(await compareSignals(d.a, d.b, d.sampleRate, { maxLagMs: d.maxLagMs }));
      const split = stringifyReport(
        await compareSignals(d.a, d.b, d.sampleRate, { maxLagMs: d.maxLagMs, spectral: thread.run }),
      );
      expect(split).toBe(alone);
    } finally {
      await thread.close();
    }
  });

  // The worker's part, read off its `add` messages by a worker that records them and then runs the real one.
  it('gives the worker most of the frames, not all of them, and the same bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spectral-ranges-'));
    const record = join(dir, 'ranges.jsonl');
    const real = new URL('../../../../dist/electron/host/spectral/spectral-worker.js', import.meta.url).href;
    // The real worker is imported first, so that its listener is there before any message is delivered.
    const recorder = `import ${JSON.stringify(real)};
import { appendFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
parentPort.on('message', (m) => { if (m.kind === 'add') appendFileSync(${JSON.stringify(record)}, JSON.stringify(m.frames) + '\\n'); });`;
    const thread = new SpectralThread(() => new URL(`data:text/javascript,${encodeURIComponent(recorder)}`));
    try {
      const [c] = regressionCases(); // 12 s at 24 kHz: 561 frames at lag 0
      const options = { maxLagMs: c.maxLagMs };
      const alone = stringifyReport(await compareSignals(c.a, c.b, c.sampleRate, options));
      const split = stringifyReport(await compareSignals(c.a, c.b, c.sampleRate, { ...options, spectral: thread.run }));
      expect(split).toBe(alone);
      const ranges = readFileSync(record, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as FrameRange);
      const frames = framesOfPair(Math.min(c.a.length, c.b.length), frameSize(c.sampleRate));
      expect(ranges).toHaveLength(2); // the pair at lag 0, then the aligned pair: the same range
      for (const range of ranges) {
        expect(range.from).toBe(0);
        expect(range.to).toBeGreaterThan(frames / 2);
        expect(range.to).toBeLessThan(frames);
      }
    } finally {
      await thread.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('measures takes over the staging limit on the calling thread, with the same bytes, never starting the worker', async () => {
    // A worker that would fail the comparison if it were started.
    const thread = new SpectralThread(() => new URL('data:text/javascript,process.exit(3)'), 0);
    for (const c of regressionCases().slice(0, 3)) {
      const options = { maxLagMs: c.maxLagMs };
      const alone = stringifyReport(await compareSignals(c.a, c.b, c.sampleRate, options));
      const here = stringifyReport(
        await compareSignals(c.a, c.b, c.sampleRate, { ...options, spectral: thread.run }),
      );
      expect(here, c.name).toBe(alone);
    }
  });

  it('fails the comparison with a clear error when the worker dies, and keeps failing', async () => {
    const thread = new SpectralThread(() => new URL('data:text/javascript,process.exit(3)'));
    const [c] = regressionCases();
    const compare = () => compareSignals(c.a, c.b, c.sampleRate, { spectral: thread.run });
    await expect(compare()).rejects.toThrow('the spectral worker exited with code 3');
    expect(arenaIsFree()).toBe(true); // the failed job's part on this thread let it go
    await expect(compare()).rejects.toThrow('the spectral worker exited with code 3');
  });
});
