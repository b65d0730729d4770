import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { InputError } from '../../../electron/common/errors.js';
import { bundleSelectors } from '../../../renderer/src/store/bundle/bundle-selectors.js';
import { drillSelectors } from '../../../renderer/src/store/drill/drill-selectors.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

// The host's request check prefixes the StudioApi method ("saveAbx: session.trials: ..."), a name that
// means nothing to a user: every slice that shows a host error shows it without that prefix.
const ID = '20250101-000000-abcdef';
const rerun = { text: 'Hi.', profileA: 'eager', profileB: 'eager,fault=stale-feedback@8', seed: 0, sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 } };
const diverged = { historyId: ID, report: { verdict: 'diverged', rerun, divergence: { firstStep: 8, stage: 'talker-logits' } } } as unknown as ComparisonResult;

const refusing = (studio: Partial<Record<keyof StudioApi, unknown>>) => ({ on: () => () => undefined, ...studio }) as unknown as StudioApi;

describe('host errors are shown without the StudioApi method name', () => {
  it('the model bundle that could not be opened: the sticky notice and the bundle error', async () => {
    const store = createStudioStore(refusing({ bundleInfo: async () => Promise.reject(new InputError('bundleInfo: bundle.json: missing')) }));
    await store.getState().loadBundle();
    expect(bundleSelectors.error(store.getState())).toBe('bundle.json: missing');
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual(['The model bundle could not be opened: bundle.json: missing']);
  });

  it('an ABX result that could not be saved', async () => {
    const store = createStudioStore(refusing({ saveAbx: async () => Promise.reject(new InputError('saveAbx: session.trials: expected at most 1000 items')) }));
    store.getState().showComparison(diverged);
    store.getState().startAbx(1);
    store.getState().answerAbx('A');
    await store.getState().saveAbx();
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual(['Could not save the ABX result: session.trials: expected at most 1000 items']);
  });

  it('a drill that failed', async () => {
    const store = createStudioStore(refusing({ drillHistory: async () => Promise.reject(new InputError(`drillHistory: id: "${ID}" is not in the history`)) }));
    store.getState().showComparison(diverged);
    await store.getState().drillCurrent();
    expect(drillSelectors.status(store.getState())).toBe('failed');
    expect(drillSelectors.error(store.getState())).toBe(`id: "${ID}" is not in the history`);
  });
});
