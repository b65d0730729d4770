import { beforeAll, describe, expect, it } from 'vitest';
import { Sampling } from '../../../../electron/common/api/primitives.js';
import { parseCorpus } from '../../../../electron/common/sweep/corpus.js';
import { planCases } from '../../../../electron/common/sweep/plan.js';
import type { SweepCase } from '../../../../electron/common/sweep/sweep-case.js';
import { runEngineSweep } from '../../../../electron/host/sweep/run-engine-sweep.js';
import { ensureBuilt } from '../ensure-built.js';

// The real engine on the demo bundle, in real worker processes. Prompts are short (a few frames each);
// the last is over the demo bundle's 128-byte text limit, so its case fails in the engine.
const CORPUS = ['{"id":"a","text":"Hi."}', '{"id":"b","text":"The cat sat on the mat."}', '{"id":"c","text":"Yes."}', `{"id":"long","text":"${'a'.repeat(200)}"}`].join('\n');
const cases = planCases(parseCorpus(CORPUS, 'corpus.jsonl'), [0]);

async function sweep(jobs: number): Promise<SweepCase[]> {
  const lines: SweepCase[] = [];
  await runEngineSweep(cases, { profileA: 'graph', profileB: 'graph,fault=stale-feedback@2', sampling: Sampling.parse({}), jobs, onCase: (c) => lines.push(c) });
  return lines.sort((x, y) => x.index - y.index);
}

beforeAll(ensureBuilt);

describe('runEngineSweep', () => {
  it('with 2 workers gives the same lines (timings aside) as with 1, and records an engine refusal as an error line', async () => {
    const one = await sweep(1);
    const two = await sweep(2);
    const strip = (cs: SweepCase[]) => cs.map(({ timings: _t, ...c }) => c);
    expect(strip(two)).toEqual(strip(one));
    expect(one.map((c) => [c.id, c.verdict, c.firstStep])).toEqual([
      ['a', 'diverged', 2],
      ['b', 'diverged', 2],
      ['c', 'diverged', 2],
      ['long', 'error', null],
    ]);
    expect(one[3].error).toContain("over this bundle's limit of 128");
    // Each side's synthesis time comes from the report; the wall time covers both and the measuring.
    expect(one[0].timings.aMs).toBeGreaterThan(0);
    expect(one[0].timings.wallMs).toBeGreaterThanOrEqual(one[0].timings.aMs! + one[0].timings.bMs!);
  });

  it('stops with the error when the bundle cannot be opened (no line is written for it)', async () => {
    const lines: SweepCase[] = [];
    await expect(
      runEngineSweep(cases.slice(0, 2), { bundleDir: '/nonexistent-bundle', profileA: 'graph', profileB: 'eager', sampling: Sampling.parse({}), jobs: 1, onCase: (c) => lines.push(c) }),
    ).rejects.toThrow('/nonexistent-bundle');
    expect(lines).toEqual([]);
  });
});
