import { describe, expect, it } from 'vitest';
import type { StateStorage } from 'zustand/middleware';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { FORM_STORAGE_KEY } from '../../../renderer/src/store/job/form-persistence.js';
import { createStudioStore, silentPlayer } from '../../../renderer/src/store/studio-store.js';

/** A Storage of strings in memory, as localStorage behaves. */
function memoryStorage(): StateStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (k) => items.get(k) ?? null, setItem: (k, v) => void items.set(k, v), removeItem: (k) => void items.delete(k) };
}

const store = (storage?: StateStorage) => createStudioStore({} as StudioApi, silentPlayer, undefined, storage);

describe('the form kept across reloads', () => {
  it('a new page (a new store on the same storage) opens with the prompt and settings the last one had', () => {
    const storage = memoryStorage();
    const before = store(storage);
    const defaults = before.getState().form;
    before.getState().setForm({ text: 'Check my CUDA graph.', profileB: 'graph,fault=stale-feedback@2', seed: 7, teacherForce: true, sampling: { ...defaults.sampling, mode: 'sample', topK: 40 } });
    const after = store(storage).getState().form;
    expect(after).toEqual({ ...defaults, text: 'Check my CUDA graph.', profileB: 'graph,fault=stale-feedback@2', seed: 7, teacherForce: true, sampling: { ...defaults.sampling, mode: 'sample', topK: 40 } });
    // Only the form is stored: no comparison, no audio.
    expect(Object.keys(JSON.parse(storage.items.get(FORM_STORAGE_KEY)!).state)).toEqual(['form']);
    // Without a storage (unit tests, a browser that refuses it) nothing is kept.
    expect(store().getState().form).toEqual(defaults);
  });

  it('an edited or broken entry never breaks the form: fields that do not parse keep their defaults', () => {
    const defaults = store().getState().form;
    const storage = memoryStorage();
    storage.setItem(FORM_STORAGE_KEY, JSON.stringify({ state: { form: { text: 'kept', seed: -3, profileA: 42, sampling: { mode: 'loud' } } }, version: 1 }));
    expect(store(storage).getState().form).toEqual({ ...defaults, text: 'kept' });
    storage.setItem(FORM_STORAGE_KEY, '{not json');
    expect(store(storage).getState().form).toEqual(defaults);
  });
});
