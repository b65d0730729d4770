import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import type { StudioEvents } from '../../../electron/common/api/events.js';
import type { JobProgress } from '../../../electron/common/api/jobs.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { CancelledError } from '../../../electron/common/errors.js';
import type { DrillReport } from '../../../electron/common/report/drill.js';
import { drillSelectors } from '../../../renderer/src/store/drill/drill-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const rerun = { text: 'Hi.', profileA: 'eager', profileB: 'eager,fault=stale-feedback@8', seed: 0, sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 } };
const diverged = (historyId: string) => ({ historyId, report: { verdict: 'diverged', rerun, divergence: { firstStep: 8, stage: 'talker-logits' } } }) as unknown as ComparisonResult;
const report: DrillReport = {
  status: 'nothing-differs',
  step: 8,
  divergenceStage: 'talker-logits',
  network: 'talker',
  tolerance: { abs: 1e-4, rel: 0 },
  input: null,
  node: null,
  compared: 30,
  skipped: 0,
  unmatched: 0,
  summary: 'step 8 (talker): nothing differs: all 30 compared tensors (inputs and node outputs) match within |Δ| ≤ 0.0001',
};
const progress = (phase: JobProgress['phase'], fraction: number, message: string): JobProgress => ({ phase, step: 0, totalSteps: 0, fraction, message });

/**
 * A host double: `drillHistory` answers a job id, progress goes out as events, and `drillResult` waits
 * until the test settles the job (`finish`) or a `cancel` rejects it as the host does.
 */
function fakeStudio(result: () => Promise<DrillReport> = async () => report) {
  const events = new TypedEmitter<StudioEvents>();
  const asked: string[] = [];
  const cancels: string[] = [];
  const jobs = new Map<string, { result: Promise<DrillReport>; resolve: (r: DrillReport) => void; reject: (e: Error) => void }>();
  let last = '';
  const studio = {
    on: events.on.bind(events),
    drillHistory: async ({ id }: { id: string }) => {
      asked.push(id);
      last = `job-${jobs.size + 1}`;
      let settle!: { resolve: (r: DrillReport) => void; reject: (e: Error) => void };
      const result = new Promise<DrillReport>((resolve, reject) => (settle = { resolve, reject }));
      jobs.set(last, { result, ...settle });
      return { jobId: last };
    },
    drillResult: ({ jobId }: { jobId: string }) => jobs.get(jobId)!.result,
    cancel: async ({ jobId }: { jobId: string }) => {
      cancels.push(jobId);
      jobs.get(jobId)?.reject(new CancelledError(`${jobId} cancelled`));
      return { cancelled: true };
    },
  } as unknown as StudioApi;
  const finish = async () => result().then((r) => jobs.get(last)?.resolve(r), (e: Error) => jobs.get(last)?.reject(e));
  return { studio, events, asked, cancels, finish };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('drill slice', () => {
  it('drills the comparison on screen as a job, follows its progress, and shows the lines compare --drill prints', async () => {
    const host = fakeStudio();
    const store = createStudioStore(host.studio);
    store.getState().showComparison(diverged('20250101-000000-aaaaaa'));
    expect(drillSelectors.canDrill(store.getState())).toBe(true);
    const done = store.getState().drillCurrent();
    await tick();
    expect(host.asked).toEqual(['20250101-000000-aaaaaa']);
    expect(drillSelectors.progressLabel(store.getState())).toBe('Starting…');
    host.events.emit('progress', 'job-1', progress('A', 0.1, 're-running side A (eager) up to step 8: talker step 2 of 8'));
    // Another job's progress (a synthesis) is not the drill's.
    host.events.emit('progress', 'job-7', progress('B', 0.9, 'talker'));
    expect(drillSelectors.progressLabel(store.getState())).toBe('re-running side A (eager) up to step 8: talker step 2 of 8');
    expect(drillSelectors.percent(store.getState())).toBe(10);
    host.events.emit('progress', 'job-1', progress('compare', 0.8, 'comparing run 1 of 1 (talker step 8): every node output of A against B'));
    expect(drillSelectors.progressLabel(store.getState())).toMatch(/^comparing run 1 of 1/);
    await host.finish();
    await done;
    expect(drillSelectors.status(store.getState())).toBe('done');
    expect(drillSelectors.progressLabel(store.getState())).toBe('');
    expect(drillSelectors.lines(store.getState())?.[0]).toBe(`Drill-down: ${report.summary}`);
    // Same array for the same state: zustand compares selector results by reference.
    expect(drillSelectors.lines(store.getState())).toBe(drillSelectors.lines(store.getState()));
    // Another comparison on screen: the old result is not shown under it.
    store.getState().showComparison(diverged('20250101-000000-bbbbbb'));
    expect(drillSelectors.lines(store.getState())).toBeUndefined();
  });

  it('Cancel stops the job; the drill saved before stays on screen and nothing else changes', async () => {
    const host = fakeStudio();
    const store = createStudioStore(host.studio);
    store.getState().showComparison({ ...diverged('20250101-000000-cccccc'), drill: report });
    const done = store.getState().drillCurrent();
    await tick();
    expect(drillSelectors.running(store.getState())).toBe(true);
    // While it runs, the saved drill is still shown.
    expect(drillSelectors.lines(store.getState())?.[0]).toBe(`Drill-down: ${report.summary}`);
    await store.getState().cancelDrill();
    expect(host.cancels).toEqual(['job-1']);
    await done;
    expect(drillSelectors.status(store.getState())).toBe('cancelled');
    expect(drillSelectors.error(store.getState())).toBeUndefined();
    expect(drillSelectors.lines(store.getState())?.[0]).toBe(`Drill-down: ${report.summary}`);
    // A cancel when nothing runs sends nothing.
    await store.getState().cancelDrill();
    expect(host.cancels).toEqual(['job-1']);
  });

  it('a cancel pressed before the host has answered with the job id is sent as soon as it does', async () => {
    const host = fakeStudio();
    const store = createStudioStore(host.studio);
    store.getState().showComparison(diverged('20250101-000000-dddddd'));
    const done = store.getState().drillCurrent();
    // drillHistory has not answered yet (no await since drillCurrent started).
    await store.getState().cancelDrill();
    expect(drillSelectors.progressLabel(store.getState())).toBe('Cancelling…');
    expect(drillSelectors.cancelling(store.getState())).toBe(true);
    await tick();
    expect(host.cancels).toEqual(['job-1']);
    await done;
    expect(drillSelectors.status(store.getState())).toBe('cancelled');
  });

  it('no drill for imports (no settings) or comparisons without a divergent step; a failure is shown', async () => {
    const host = fakeStudio(async () => Promise.reject(new Error('engine gone')));
    const store = createStudioStore(host.studio);
    store.getState().showComparison({ historyId: '20250101-000000-eeeeee', report: { kind: 'wavs' } } as unknown as ComparisonResult);
    expect(drillSelectors.canDrill(store.getState())).toBe(false);
    store.getState().showComparison({ historyId: '20250101-000000-ffffff', report: { rerun, divergence: { firstStep: null, stage: null } } } as unknown as ComparisonResult);
    expect(drillSelectors.canDrill(store.getState())).toBe(false);
    store.getState().showComparison(diverged('20250101-000000-abcabc'));
    const done = store.getState().drillCurrent();
    await tick();
    await host.finish();
    await done;
    expect(drillSelectors.status(store.getState())).toBe('failed');
    expect(drillSelectors.error(store.getState())).toBe('engine gone');
  });

  it('a drill saved with the history entry is shown when the comparison is reopened; a new drill replaces it', async () => {
    const fresh = { ...report, summary: 'step 8 (talker): drilled again' };
    const host = fakeStudio(async () => fresh);
    const store = createStudioStore(host.studio);
    store.getState().showComparison({ ...diverged('20250101-000000-bcdbcd'), drill: report });
    expect(drillSelectors.status(store.getState())).toBe('done');
    expect(drillSelectors.lines(store.getState())?.[0]).toBe(`Drill-down: ${report.summary}`);
    const done = store.getState().drillCurrent();
    await tick();
    await host.finish();
    await done;
    expect(drillSelectors.lines(store.getState())?.[0]).toBe('Drill-down: step 8 (talker): drilled again');
    // Another entry without a saved drill shows none.
    store.getState().showComparison(diverged('20250101-000000-cdecde'));
    expect(drillSelectors.status(store.getState())).toBeUndefined();
    expect(drillSelectors.lines(store.getState())).toBeUndefined();
  });
});
