import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

// 32 frames; the stream's spans are 5, 10, 13, 13, 13, 13, 10 frames (chunks of 5, up to 8 of left context).
const TEXT = 'Hello world, this is a parity test.';
let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

const compare = (profileB: string) =>
  compareProfiles(engine, { text: TEXT, profileA: 'graph,vocoder=stream', profileB, seed: 0, sampling: GREEDY, bundle: 'demo' }, { createdAt: '2026-01-01T00:00:00Z' });

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
