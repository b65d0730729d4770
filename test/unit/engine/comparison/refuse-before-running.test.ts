import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProfile } from '../../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { compareProfiles, type CompareProgress } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

describe('compareProfiles refuses a profile the bundle cannot run before either side runs', () => {
  // The demo's batched exports are fp32 only, so B cannot run; A alone would take a full synthesis.
  it('B needs a batched export the bundle lacks: the refusal comes with no progress from A', async () => {
    const progress: CompareProgress[] = [];
    const req = { text: 'Hello world, this is a parity test.', profileA: 'eager', profileB: 'eager,precision=fp16,batch=4', seed: 0, sampling: GREEDY, bundle: 'demo' };
    await expect(compareProfiles(engine, req, { createdAt: '2026-01-01T00:00:00Z', onProgress: (p) => progress.push(p) })).rejects.toThrow(/bundle.json "batch" has no "eager-fp16" export/);
    expect(progress).toEqual([]);
  });

  it('the same check passes a profile it can run (checkRunnable throws nothing)', () => {
    expect(() => engine.checkRunnable(parseProfile('graph,batch=8'), GREEDY)).not.toThrow();
    expect(() => engine.checkRunnable(parseProfile('graph,precision=fp16,batch=8'), GREEDY)).toThrow(/bundle.json "batch" has no "graph-fp16@B" export/);
  });
});
