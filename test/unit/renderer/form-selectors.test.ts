import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import { bundleLabel } from '../../../renderer/src/lib/bundle-label.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-selectors.js';
import { formSelectors } from '../../../renderer/src/store/job/form-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const rerun = { text: 'Hello.', profileA: 'eager', profileB: 'graph', seed: 0, sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 } } as const;
const diverged = { historyId: '20250101-000000-abcdef', report: { verdict: 'diverged', rerun } } as unknown as ComparisonResult;

describe('Synthesize: blocked with a reason, each problem shown once', () => {
  it('a bad profile blocks Synthesize; start() does not call the host; the reason names the field, not the message again', async () => {
    let calls = 0;
    const store = createStudioStore({ compare: async () => (calls++, { jobId: 'j' }) } as unknown as StudioApi);
    expect(formSelectors.synthBlocked(store.getState())).toBeUndefined();
    store.getState().setForm({ profileB: 'graph,vocodr=stream' });
    const reason = formSelectors.synthBlocked(store.getState());
    expect(reason).toBe('Fix Profile B to synthesize.');
    await store.getState().start();
    expect(calls).toBe(0);
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
  });

  it('a bundle that cannot be opened: one notice, Synthesize off with a reason', async () => {
    const store = createStudioStore({ bundleInfo: async () => Promise.reject(new Error('bundle.json: bad talker input')) } as unknown as StudioApi);
    await store.getState().loadBundle();
    expect(noticesSelectors.notices(store.getState())).toHaveLength(1);
    expect(formSelectors.synthBlocked(store.getState())).toMatch(/model bundle could not be opened/);
  });

  it('a profile error from the host is not also a notice (it is shown under the buttons)', async () => {
    const { ParityError } = await import('../../../electron/common/errors.js');
    const store = createStudioStore({ compare: async () => Promise.reject(new ParityError('profile', 'profileB: unknown key')) } as unknown as StudioApi);
    await store.getState().start();
    expect(store.getState().status).toBe('failed');
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
  });
});

describe('stale results', () => {
  it('the shown comparison is stale once the form no longer matches its settings', () => {
    const store = createStudioStore({} as StudioApi);
    store.getState().showComparison(diverged);
    expect(formSelectors.staleNote(store.getState())).toBeUndefined();
    store.getState().setForm({ profileB: 'graph,vocoder=stream' });
    expect(formSelectors.staleNote(store.getState())).toBe('These results are for eager vs graph; the settings changed since. Synthesize to update them.');
    store.getState().setForm({ profileB: 'graph' });
    expect(formSelectors.staleNote(store.getState())).toBeUndefined();
    store.getState().setForm({ seed: 3 });
    expect(formSelectors.staleNote(store.getState())).toMatch(/settings changed/);
  });

  it('an import (no settings) is never stale', () => {
    const store = createStudioStore({} as StudioApi);
    store.getState().showComparison({ historyId: '20250101-000000-abcdef', report: { kind: 'wavs' } } as unknown as ComparisonResult);
    store.getState().setForm({ text: 'other' });
    expect(formSelectors.staleNote(store.getState())).toBeUndefined();
  });
});

describe('bundle label', () => {
  it('never says "demo demo"', () => {
    expect(bundleLabel({ name: 'demo', demo: true })).toEqual({ name: 'Demo bundle', tag: 'untrained' });
    expect(bundleLabel({ name: 'qwen-tts', demo: false })).toEqual({ name: 'qwen-tts' });
  });
});
