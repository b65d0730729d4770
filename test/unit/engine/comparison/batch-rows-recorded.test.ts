import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GREEDY } from '../../../../electron/common/sampling/types.js';
import { profileComparisonView } from '../../../../electron/common/report/comparison-view.js';
import { compareProfiles } from '../../../../electron/engine/comparison/compare-profiles.js';
import { Engine, resolveDemoBundle } from '../../../../electron/engine/engine.js';

let engine: Engine;
beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
});
afterAll(async () => engine?.close());

describe('the rows a batch ran with are recorded (the demo: eager any batch, graph buckets 2, 4, 8)', () => {
  it('graph,batch=3 runs at bucket 4, eager,batch=3 at 3 rows, batch 1 records none', async () => {
    const run = (profileA: string, profileB: string) =>
      compareProfiles(engine, { text: 'Hi.', profileA, profileB, seed: 0, sampling: GREEDY, bundle: 'demo' }, { createdAt: '2026-01-01T00:00:00Z' });
    const graph = await run('graph', 'graph,batch=3');
    expect(graph.report.a.batchRows).toBeUndefined();
    expect(graph.report.b.batchRows).toBe(4);
    const eager = await run('eager,batch=3', 'eager');
    expect(eager.report.a.batchRows).toBe(3);
    expect(profileComparisonView(graph.report).sides[1]).toMatch(/^B: graph,batch=3 on cpu, batch run as 4 rows, /);
  });
});
