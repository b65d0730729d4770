import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';
import { jobSelectors } from '../../../renderer/src/store/job/job-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

/** A StudioApi double: compare starts job-1 and its result waits for `finish`. */
function fakeStudio() {
  let finish!: (v: unknown) => void;
  let fail!: (e: Error) => void;
  const cancelled: string[] = [];
  const studio = {
    compare: async () => ({ jobId: 'job-1' }),
    comparisonResult: () => new Promise((res, rej) => ((finish = res), (fail = rej))),
    cancel: async ({ jobId }: { jobId: string }) => (cancelled.push(jobId), { cancelled: true }),
  } as unknown as StudioApi;
  return { studio, finish: (v: unknown) => finish(v), fail: (e: Error) => fail(e), cancelled };
}

describe('job slice and selectors (no React)', () => {
  it('runs a comparison: running with labelled progress, then done with the verdict', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    const done = store.getState().start();
    await Promise.resolve();
    expect(jobSelectors.running(store.getState())).toBe(true);
    expect(jobSelectors.progressLabel(store.getState())).toBe('Starting…');
    store.getState().trackProgress('job-1', { phase: 'B', step: 12, totalSteps: 32, fraction: 0.7, message: 'talker' });
    store.getState().trackProgress('job-9', { phase: 'A', step: 1, totalSteps: 32, fraction: 0.1 }); // another job: ignored
    expect(jobSelectors.progressLabel(store.getState())).toBe('Profile B: talker step 12 of 32');
    expect(jobSelectors.percent(store.getState())).toBe(70);
    f.finish({ historyId: '20250101-000000-abcdef', report: { verdict: 'diverged', metrics: { correlation: 0.5 } } });
    await done;
    expect(jobSelectors.status(store.getState())).toBe('done');
    expect(jobSelectors.verdict(store.getState())).toBe('diverged');
  });

  it('cancel asks the host for the running job; a cancelled error ends as cancelled, others as failed', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    const run = store.getState().start();
    await new Promise((r) => setTimeout(r, 0));
    await store.getState().cancel();
    expect(f.cancelled).toEqual(['job-1']);
    f.fail(new ParityError('cancelled', 'job-1 cancelled'));
    await run;
    expect(jobSelectors.status(store.getState())).toBe('cancelled');

    const g = fakeStudio();
    const store2 = createStudioStore(g.studio);
    const run2 = store2.getState().start();
    await new Promise((r) => setTimeout(r, 0));
    g.fail(new ParityError('engine', 'the engine worker crashed'));
    await run2;
    expect(jobSelectors.error(store2.getState())).toEqual({ kind: 'engine', message: 'the engine worker crashed' });
  });

  it('flags a bad profile while typing, with the parser message', () => {
    const store = createStudioStore(fakeStudio().studio);
    store.getState().setForm({ profileA: 'graph,cache=maybe' });
    expect(jobSelectors.profileIssue('profileA')(store.getState())).toMatch(/cache/);
    expect(jobSelectors.profileIssue('profileB')(store.getState())).toBeUndefined();
  });
});
