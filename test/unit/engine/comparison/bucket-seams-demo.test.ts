import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleTailBoundaries } from '../../../../electron/common/profile/bucket.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

// 32 frames; the stream's spans are 5, 10, 13, 13, 13, 13, 10 frames (chunks of 5, up to 8 of left context).
const TEXT = 'Hello world, this is a parity test.';
const DEMO = { chunkFrames: 5, leftContextFrames: 8 };
let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

const compare = (profileB: string) =>
  compareProfiles(engine, { text: TEXT, profileA: 'graph,vocoder=stream', profileB, seed: 0, sampling: GREEDY, bundle: 'demo' }, { createdAt: '2026-01-01T00:00:00Z' });

const maxAbsDiff = (a: Float32Array, b: Float32Array): number => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe('bucket=K on the demo bundle (vs the plain stream vocoder)', () => {
  it('a clean bucket=13 or bucket=16 stream is bit-identical to vocoder=stream, and has no seam', async () => {
    for (const b of ['graph,vocoder=stream,bucket=13', 'graph,vocoder=stream,bucket=16']) {
      const { report, resultA, resultB } = await compare(b);
      // Tolerance 0: the vocoder is causal, so padding after the real frames leaves their audio alone, and the
      // carried phase comes from an unpadded decode (run/vocode.ts), the same one vocoder=stream does.
      expect(resultB.audio.length).toBe(resultA.audio.length);
      expect(maxAbsDiff(resultA.audio, resultB.audio)).toBe(0);
      expect(report.verdict).toBe('identical');
      expect(report.seams).toMatchObject({ checked: 6, seams: [] });
    }
  });

  it('stale-tail: seams at exactly the boundaries after a padded chunk (bucket=13: 1 and 2; bucket=16: all 6), divergence at the vocoder stage', async () => {
    for (const [bucket, expected] of [[13, [1, 2]], [16, [1, 2, 3, 4, 5, 6]]] as const) {
      expect(staleTailBoundaries(32, DEMO, bucket)).toEqual(expected);
      const { report, resultB } = await compare(`graph,vocoder=stream,bucket=${bucket},fault=stale-tail`);
      expect(report.seams!.seams.map((s) => s.boundary)).toEqual(expected);
      expect(report.seams!.seams[0]).toMatchObject({ frame: 6, sample: 9600 });
      expect(report.divergence).toMatchObject({ stage: 'vocoder', firstStep: 6 });
      expect(resultB.faults).toEqual([{ fault: 'stale-tail', applied: true }]);
    }
  });

  it('stale-tail under bucket=13 leaves chunks 3 to 7 untouched past the leaked 46 ms', async () => {
    const { resultA, resultB } = await compare('graph,vocoder=stream,bucket=13,fault=stale-tail');
    const leak = Math.round(0.046 * 24000); // 1,104 samples after boundaries 1 and 2 (samples 9600 and 19200)
    expect(maxAbsDiff(resultA.audio.subarray(0, 9600), resultB.audio.subarray(0, 9600))).toBe(0);
    expect(maxAbsDiff(resultA.audio.subarray(9600, 9600 + leak), resultB.audio.subarray(9600, 9600 + leak))).toBeGreaterThan(0.01);
    expect(maxAbsDiff(resultA.audio.subarray(9600 + leak, 19200), resultB.audio.subarray(9600 + leak, 19200))).toBe(0);
    expect(maxAbsDiff(resultA.audio.subarray(19200 + leak), resultB.audio.subarray(19200 + leak))).toBe(0);
  });
});

describe('bucket=K1|K2 on the demo bundle (vs the plain stream vocoder)', () => {
  it('a clean bucket=5|16 stream is bit-identical to vocoder=stream, with no seam', async () => {
    // Tolerance 0, as for bucket=K: the vocoder is causal and the carried phase comes from an unpadded decode.
    const { report } = await compare('graph,vocoder=stream,bucket=5|16');
    expect(report.verdict).toBe('identical');
    expect(report.seams).toMatchObject({ checked: 6, seams: [] });
  });

  it('stale-tail: seams at the boundaries after a chunk padded to a listed size (5|16: 2 to 6; 8|10: 1 only, 13 is above both)', async () => {
    for (const [bucket, boundaries, frame] of [['5|16', [2, 3, 4, 5, 6], 11], ['8|10', [1], 6]] as const) {
      const { report } = await compare(`graph,vocoder=stream,bucket=${bucket},fault=stale-tail`);
      expect(report.seams!.seams.map((s) => s.boundary)).toEqual(boundaries);
      expect(report.divergence).toMatchObject({ stage: 'vocoder', firstStep: frame });
    }
  });
});
