import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { SummaryCase, SweepSummary } from '../../../electron/common/sweep/sweep-summary.js';
import { sweepSelectors } from '../../../renderer/src/store/sweep/sweep-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

function summaryCase(index: number, verdict: SummaryCase['verdict'], correlation: number | null, firstStep: number | null): SummaryCase {
  return { index, id: `p${index}`, seed: 3, text: `Prompt ${index}.`, verdict, firstStep, stage: firstStep === null ? null : 'talker-logits', codebook: null, reconverges: null, flip: firstStep === null ? null : 'real', correlation, nullDepthDb: null, loudnessDeltaLU: null, lsdDb: null, mcdDb: null };
}

const quantiles = { count: 0, nonFinite: 0, min: null, p05: null, p25: null, p50: null, p75: null, p95: null, max: null };
const SUMMARY: SweepSummary = {
  schema: 'tts-parity-sweep-summary/1',
  mode: 'profiles',
  a: 'graph',
  b: 'graph,fault=stale-feedback@2',
  bundle: 'demo',
  sampling: { mode: 'sample', temperature: 0.7, topK: 50, topP: 1, repetitionPenalty: 1 },
  corpusSha256: 'c'.repeat(64),
  totalCases: 3,
  counts: { identical: 1, 'within-tolerance': 0, diverged: 1, error: 1, missing: 0 },
  flips: { 'near-tie': 0, real: 1, unknown: 0 },
  firstStep: { histogram: [{ step: 2, count: 1 }], byStage: [{ stage: 'talker-logits', histogram: [{ step: 2, count: 1 }] }], mode: 2 },
  distributions: { correlation: quantiles, loudnessDeltaLU: quantiles, mcdDb: quantiles },
  worst: [{ key: 'p1@3' }],
  problems: { missingShards: [], missing: [], duplicates: [], conflicts: [], unpaired: [] },
  cases: [summaryCase(0, 'identical', 1, null), summaryCase(1, 'diverged', 0.2, 2), summaryCase(2, 'error', null, null)],
};
const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));

/** A StudioApi double that records the comparisons asked for. */
function fakeStudio() {
  const asked: unknown[] = [];
  const studio = {
    compare: async (req: unknown) => (asked.push(req), { jobId: 'job-1' }),
    comparisonResult: async () => ({ historyId: '20250101-000000-abcdef', report: { verdict: 'diverged', metrics: { correlation: 0.2 } } }),
    listHistory: async () => ({ entries: [] }),
  } as unknown as StudioApi;
  return { studio, asked };
}

describe('sweep slice and selectors (no React)', () => {
  it('opens a sweep.json and sorts its cases by a column, the same column again reversing, missing values last', () => {
    const store = createStudioStore(fakeStudio().studio);
    store.getState().openSweep('sweep.json', bytes(SUMMARY));
    const ids = () => sweepSelectors.cases(store.getState()).map((c) => c.id);
    expect(ids()).toEqual(['p0', 'p1', 'p2']);
    // Correlation ascending first (worst first); the error's null correlation sorts last either way.
    store.getState().sortSweep('correlation');
    expect(ids()).toEqual(['p1', 'p0', 'p2']);
    store.getState().sortSweep('correlation');
    expect(ids()).toEqual(['p0', 'p1', 'p2']);
    store.getState().sortSweep('verdict');
    expect(ids()).toEqual(['p0', 'p1', 'p2']); // descending: identical, diverged, error
    // The same array while nothing changes (zustand compares selector results by reference).
    expect(sweepSelectors.cases(store.getState())).toBe(sweepSelectors.cases(store.getState()));
  });

  it('refuses a file that is not a sweep summary with a notice naming the file and the field', () => {
    const store = createStudioStore(fakeStudio().studio);
    store.getState().openSweep('report.json', bytes({ ...SUMMARY, schema: 'tts-parity-report/1' }));
    store.getState().openSweep('notes.json', bytes('not json'));
    expect(store.getState().sweep).toBeUndefined();
    expect(store.getState().notices.map((n) => n.message)).toEqual([expect.stringMatching(/^report\.json: not a sweep summary \(schema: /), 'notes.json: not JSON']);
  });

  it("opens a case by synthesizing it with the sweep's prompt, seed, profiles and sampling", async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    store.getState().openSweep('sweep.json', bytes(SUMMARY));
    await store.getState().openSweepCase(SUMMARY.cases[1]);
    expect(f.asked).toEqual([{ text: 'Prompt 1.', profileA: 'graph', profileB: 'graph,fault=stale-feedback@2', seed: 3, sampling: SUMMARY.sampling }]);
    expect(store.getState().status).toBe('done');
  });

  it('a case whose synthesis finishes after "Back to sweep" waits behind the dashboard; one synthesized from the dashboard takes the view', async () => {
    let finish = () => {};
    const studio = {
      ...fakeStudio().studio,
      comparisonResult: () => new Promise((resolve) => (finish = () => resolve({ historyId: '20250101-000000-abcdef', report: { verdict: 'diverged' } }))),
    } as unknown as StudioApi;
    const store = createStudioStore(studio);
    store.getState().openSweep('sweep.json', bytes(SUMMARY));
    const opened = store.getState().openSweepCase(SUMMARY.cases[1]);
    await expect.poll(() => store.getState().jobId).toBe('job-1');
    store.getState().showSweep(true);
    finish();
    await opened;
    expect(store.getState().comparison?.historyId).toBe('20250101-000000-abcdef');
    expect(store.getState().sweepShown).toBe(true);

    const fromDashboard = store.getState().start();
    await expect.poll(() => store.getState().status).toBe('running');
    await expect.poll(() => store.getState().jobId).toBe('job-1');
    finish();
    await fromDashboard;
    expect(store.getState().sweepShown).toBe(false);
  });

  it("says how to see a trace sweep's case instead of synthesizing it", async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    store.getState().openSweep('sweep.json', bytes({ ...SUMMARY, mode: 'traces', a: 'A/', b: 'B/', cases: [{ ...SUMMARY.cases[1], seed: null, text: undefined }] }));
    await store.getState().openSweepCase(store.getState().sweep!.summary.cases[0]);
    expect(f.asked).toEqual([]);
    expect(store.getState().notices.at(-1)?.hint).toBe('Import p1.jsonl from A/ and from B/ (and their WAVs) to see it.');
  });

  it("opens a worst case from its fixture's traces and WAVs when the merged folder was opened, and synthesizes the others", async () => {
    const f = fakeStudio();
    const imported: { a: { name: string; text: string }; b: { name: string; text: string }; wavA?: { name: string }; wavB?: { name: string } }[] = [];
    (f.studio as unknown as Record<string, unknown>).importTraces = async (req: (typeof imported)[number]) => (
      imported.push(req), { historyId: '20250101-000000-abcdef', report: { verdict: 'diverged', metrics: { correlation: 0.2 } } }
    );
    const store = createStudioStore(f.studio);
    const wav = new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0, 87, 65, 86, 69]); // RIFF....WAVE
    const file = (path: string, content: Uint8Array | string) => ({ path, read: async () => (typeof content === 'string' ? bytes(content) : content) });
    await store.getState().openSweepFolder([
      file('merged/worst-01-p1_3/b.jsonl', 'trace B'),
      file('merged/worst-01-p1_3/a.wav', wav),
      file('merged/sweep.json', JSON.stringify({ ...SUMMARY, worst: [{ key: 'p1@3', fixture: 'worst-01-p1_3' }] })),
      file('merged/worst-01-p1_3/a.jsonl', 'trace A'),
      file('merged/worst-01-p1_3/b.wav', wav),
    ]);
    expect(store.getState().sweep?.name).toBe('merged/sweep.json');
    await store.getState().openSweepCase(SUMMARY.cases[1]);
    expect(f.asked).toEqual([]);
    expect(imported.map((r) => [r.a.name, r.a.text, r.b.name, r.b.text, r.wavA?.name, r.wavB?.name])).toEqual([
      ['worst-01-p1_3-a.jsonl', 'trace A', 'worst-01-p1_3-b.jsonl', 'trace B', 'worst-01-p1_3-a.wav', 'worst-01-p1_3-b.wav'],
    ]);
    // p0 is not among the worst: it has no fixture and is synthesized again.
    await store.getState().openSweepCase(SUMMARY.cases[0]);
    expect(f.asked).toHaveLength(1);
    expect(imported).toHaveLength(1);
  });

  it('says so when a picked folder holds no sweep.json', async () => {
    const store = createStudioStore(fakeStudio().studio);
    await store.getState().openSweepFolder([{ path: 'runs/shard-001-of-1.jsonl', read: async () => bytes('{}') }]);
    expect(store.getState().sweep).toBeUndefined();
    expect(store.getState().notices.at(-1)?.message).toBe('No sweep.json in the folder');
  });

  it('filters by verdict, stage and text, lists changed verdicts first beside an earlier sweep, and keeps the filters across a case and back', async () => {
    const store = createStudioStore(fakeStudio().studio);
    store.getState().openSweep('after.json', bytes(SUMMARY));
    expect(store.getState().sweepShown).toBe(true);
    const keys = () => sweepSelectors.cases(store.getState()).map((c) => c.id);
    store.getState().setSweepFilter({ verdict: 'diverged' });
    expect(keys()).toEqual(['p1']);
    expect(sweepSelectors.cases(store.getState())).toBe(sweepSelectors.cases(store.getState()));
    store.getState().setSweepFilter({ verdict: 'all', text: 'PROMPT 2' });
    expect(keys()).toEqual(['p2']);
    store.getState().setSweepFilter({ text: '', stage: 'talker-logits' });
    expect(keys()).toEqual(['p1']);
    store.getState().setSweepFilter({ stage: 'all' });
    // A histogram bin: only the cases whose first divergent step is in it; the histogram's own cases ignore it.
    store.getState().setSweepFilter({ steps: { from: 2, to: 2 } });
    expect(keys()).toEqual(['p1']);
    expect(sweepSelectors.filteredAnyStep(store.getState()).map((c) => c.id)).toEqual(['p0', 'p1', 'p2']);
    store.getState().setSweepFilter({ steps: { from: 3, to: 9 } });
    expect(keys()).toEqual([]);
    store.getState().setSweepFilter({ steps: null });
    // Before: p2 was identical (now error), p1 diverged as now.
    const before = { ...SUMMARY, cases: [summaryCase(0, 'identical', 1, null), summaryCase(1, 'diverged', 0.3, 2), summaryCase(2, 'identical', 1, null)] };
    store.getState().openSweepBefore('before.json', bytes(before));
    expect(keys()).toEqual(['p2', 'p0', 'p1']);
    expect(sweepSelectors.changedCount(store.getState())).toBe(1);
    store.getState().setSweepFilter({ changedOnly: true });
    expect(keys()).toEqual(['p2']);
    await store.getState().openSweepCase(SUMMARY.cases[1]);
    expect(store.getState().sweepShown).toBe(false);
    store.getState().showSweep(true);
    expect(store.getState().sweepShown).toBe(true);
    expect(keys()).toEqual(['p2']);
  });
});
