import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { InputError, ParityError } from '../../../electron/common/errors.js';
import { userErrorText } from '../../../renderer/src/lib/user-error.js';
import { historySelectors } from '../../../renderer/src/store/history/history-selectors.js';
import { jobSelectors } from '../../../renderer/src/store/job/job-selectors.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const ID1 = '20250101-000000-aaaaaa';
const ID2 = '20250101-000001-bbbbbb';
const rerun = { text: 'Hi there.', profileA: 'eager', profileB: 'graph,fault=stale-feedback@200', seed: 5, sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 } };
const synthesized = { historyId: ID1, report: { kind: 'profiles', verdict: 'within-tolerance', rerun } } as unknown as ComparisonResult;
const wavPair = (id: string, a: string, b: string) => ({ historyId: id, report: { sources: { a: { path: a }, b: { path: b } } } }) as unknown as ComparisonResult;
const wav = (name: string) => ({ name, bytes: new Uint8Array([...'RIFF'].map((c) => c.charCodeAt(0)).concat([0, 0, 0, 0], [...'WAVE'].map((c) => c.charCodeAt(0)))) });

/** A host whose first compare fails as the real one does for a blank prompt (the request check's text). */
function fakeStudio() {
  const imports: string[] = [];
  const swaps: string[] = [];
  const importJobs = new Map<string, unknown>();
  let compareCalls = 0;
  const studio = {
    compare: async () => {
      compareCalls++;
      if (compareCalls === 1) throw new ParityError('input', 'compare: text: the prompt is empty');
      return { jobId: 'job-2' };
    },
    // The synthesis's job, or a WAV import's (startImportWavs: job-import-<n>).
    comparisonResult: async ({ jobId }: { jobId: string }) => importJobs.get(jobId) ?? synthesized,
    // Every import so far, listed as the host lists an entry that keeps its files.
    listHistory: async () => ({ entries: imports.map((_, i) => ({ id: i === 0 ? ID1 : ID2, createdAt: '', kind: 'wavs', title: '', swappable: true })) }),
    openHistory: async () => synthesized,
    swapHistory: async ({ id }: { id: string }) => {
      swaps.push(id);
      imports.push('swap');
      return wavPair(ID2, 'engine-b.wav', 'engine-a.wav');
    },
    startImportWavs: async ({ a, b }: { a: { name: string }; b: { name: string } }) => {
      imports.push(`${a.name} ${b.name}`);
      const jobId = `job-import-${imports.length}`;
      importJobs.set(jobId, wavPair(imports.length === 1 ? ID1 : ID2, a.name, b.name));
      return { jobId };
    },
    importTraces: async (r: { a: { name: string }; b: { name: string }; wavA?: { name: string }; wavB?: { name: string } }) => {
      imports.push(`${r.a.name}+${r.wavA?.name} ${r.b.name}+${r.wavB?.name}`);
      return wavPair(imports.length === 1 ? ID1 : ID2, r.a.name, r.b.name);
    },
  } as unknown as StudioApi;
  return { studio, imports, swaps };
}

describe('a new action clears the notices of the previous one', () => {
  it('a failed synthesis notice goes when the next synthesis starts; its text has no internal method name', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    await store.getState().start();
    expect(jobSelectors.status(store.getState())).toBe('failed');
    expect(jobSelectors.error(store.getState())).toEqual({ kind: 'input', message: 'text: the prompt is empty' });
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual(['Synthesis failed: text: the prompt is empty']);
    await store.getState().start();
    expect(jobSelectors.status(store.getState())).toBe('done');
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
  });

  it('an import and opening history clear them too, and the sidebar no longer says the synthesis failed', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    await store.getState().start();
    expect(noticesSelectors.notices(store.getState())).toHaveLength(1);
    await store.getState().importFiles([wav('x.wav'), wav('y.wav')]);
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
    expect(jobSelectors.status(store.getState())).toBe('idle');
    expect(jobSelectors.error(store.getState())).toBeUndefined();

    store.getState().notify('error', 'Export failed: disk full', 'Choose another folder.');
    await store.getState().openHistory(ID1);
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
    // A refused import replaces the old notice with its own.
    store.getState().notify('error', 'Export failed: disk full');
    await store.getState().importFiles([wav('only.wav')]);
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual(['Only one WAV file (only.wav): a comparison needs a second WAV for B.']);
  });

  it('keeps the notice the user must still act on: the model bundle that could not be opened', async () => {
    const store = createStudioStore({ ...fakeStudio().studio, bundleInfo: async () => Promise.reject(new Error('bundle.json: bad talker input')) } as StudioApi);
    await store.getState().loadBundle();
    store.getState().notify('error', 'The engine process restarted: crash', 'Run the synthesis again.');
    await store.getState().openHistory(ID1);
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual(['The model bundle could not be opened: bundle.json: bad talker input']);
  });

  it('userErrorText strips only a StudioApi method prefix', () => {
    expect(userErrorText(new ParityError('input', 'compare: text: the prompt is empty'))).toBe('text: the prompt is empty');
    expect(userErrorText(new InputError('importWavs: a: expected object'))).toBe('a: expected object');
    expect(userErrorText(new Error('x.wav: not a WAV file'))).toBe('x.wav: not a WAV file');
    expect(userErrorText(new Error('compareX: kept'))).toBe('compareX: kept');
    expect(userErrorText('plain')).toBe('plain');
  });
});

describe('Swap A/B of an imported pair', () => {
  it('asks the host to import the entry on screen again the other way round, and shows the new entry', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    await store.getState().importFiles([wav('engine-a.wav'), wav('engine-b.wav')]);
    expect(historySelectors.canSwap(store.getState())).toBe(true);
    await store.getState().swapImport();
    expect(f.swaps).toEqual([ID1]);
    expect(store.getState().comparison?.historyId).toBe(ID2);
  });

  it('is not offered for an entry the host keeps no files of', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    expect(historySelectors.canSwap(store.getState())).toBe(false);
    await store.getState().importFiles([wav('engine-a.wav'), wav('engine-b.wav')]);
    store.getState().showComparison(wavPair('20250101-000009-cccccc', 'other-a.wav', 'other-b.wav'));
    expect(historySelectors.canSwap(store.getState())).toBe(false);
    await store.getState().swapImport();
    expect(f.swaps).toEqual([]);
  });

  it('opening a synthesized entry puts its prompt, profiles and seed in the form', async () => {
    const store = createStudioStore(fakeStudio().studio);
    store.getState().setForm({ text: 'other', profileA: 'graph', seed: 9 });
    await store.getState().openHistory(ID1);
    expect(store.getState().form).toMatchObject({ text: 'Hi there.', profileA: 'eager', profileB: 'graph,fault=stale-feedback@200', seed: 5 });
  });
});
