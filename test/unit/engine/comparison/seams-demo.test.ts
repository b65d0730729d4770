import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSeams } from '../../../../electron/common/forensics/seams.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

const TEXT = 'Hello world, this is a parity test.'; // 32 frames: chunks of 5 → boundaries at frames 6, 11, …, 31
let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

const compare = (profileB: string) =>
  compareProfiles(engine, { text: TEXT, profileA: 'eager', profileB, seed: 0, sampling: GREEDY, bundle: 'demo' }, { createdAt: '2026-01-01T00:00:00Z' });

describe('seams on the demo bundle (eager vs a stream vocoder)', () => {
  it('a clean stream has no seam at any of its 6 boundaries', async () => {
    expect((await compare('eager,vocoder=stream')).report.seams).toMatchObject({ chunkFrames: 5, checked: 6, seams: [] });
  });

  it('no-left-context: seams only at chunk boundaries, the first at frame 6 (docs/faults.md); none half a chunk away', async () => {
    const { report, resultA, resultB } = await compare('eager,vocoder=stream,fault=no-left-context');
    const seams = report.seams!.seams;
    expect(seams[0]).toMatchObject({ boundary: 1, frame: 6, sample: 9600 });
    for (const s of seams) expect(s.sample % 9600).toBe(0);
    // The same measure at positions between boundaries: drop half a chunk (4,800 samples) from both renderings.
    const shifted = findSeams(resultA.audio.subarray(4800), resultB.audio.subarray(4800), { sampleRate: 24000, frameRate: 12.5, chunkFrames: 5, audioAbs: 1e-4 });
    expect(shifted.checked).toBeGreaterThan(4);
    expect(shifted.seams).toEqual([]);
  });

  it('no seams field when neither profile streams', async () => {
    expect((await compare('graph')).report.seams).toBeUndefined();
  });
});
