import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { CancelledError } from '../../../electron/common/errors.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { comparisonSelectors } from '../../../renderer/src/store/comparison/comparison-selectors.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-selectors.js';
import { createStudioStore, silentPlayer } from '../../../renderer/src/store/studio-store.js';

// A WAV import in the store (no React): the page's own decode is on screen while the host measures
// (historyId '', `measuring`), the host's result replaces it with the same sample arrays, and Cancel
// (before or after the host has a job id) cancels that job and leaves nothing on screen.

const ID = '20250101-120000-abcdef';
const samples = Float32Array.from({ length: 2400 }, (_, i) => 0.5 * Math.sin(i / 7));
const wav = encodeWav([samples], 24_000, 'float32');
const files = [
  { name: 'a.wav', bytes: wav },
  { name: 'b.wav', bytes: wav },
];

/** A host whose job answers only when `finish` or `fail` is called; records the calls. */
function slowHost() {
  const calls: string[] = [];
  let settle: { finish(): void; fail(e: Error): void } | undefined;
  let cancelled = false;
  const studio = {
    startImportWavs: async (r: { withoutAudio?: boolean }) => {
      calls.push(`start withoutAudio=${r.withoutAudio}`);
      return { jobId: 'job-7' };
    },
    comparisonResult: ({ jobId }: { jobId: string }) =>
      new Promise((resolve, reject) => {
        calls.push(`result ${jobId}`);
        // As the host: a job cancelled before its result is asked for answers "cancelled".
        if (cancelled) reject(new CancelledError(`${jobId} cancelled; nothing was saved`));
        settle = { finish: () => resolve({ historyId: ID, report: { metrics: { correlation: 1 } } }), fail: reject };
      }),
    cancel: async ({ jobId }: { jobId: string }) => {
      calls.push(`cancel ${jobId}`);
      cancelled = true;
      settle?.fail(new CancelledError(`${jobId} cancelled; nothing was saved`));
      return { cancelled: true };
    },
    listHistory: async () => ({ entries: [] }),
  } as unknown as StudioApi;
  return { studio, calls, finish: () => settle?.finish() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('a WAV import while the host measures it', () => {
  it('shows the decoded audio at once (the player filled after the first paint), then the host result with the same arrays', async () => {
    const host = slowHost();
    const loads: (Float32Array | undefined)[] = [];
    const store = createStudioStore(host.studio, { ...silentPlayer, load: (t) => void loads.push(t.a) });
    const done = store.getState().importFiles(files);
    expect(loads).toEqual([]); // not before the lanes are drawn
    await tick();
    expect(loads).toEqual([samples]);
    const shown = store.getState().comparison!;
    expect(shown.historyId).toBe('');
    expect(shown.a?.samples).toEqual(samples); // float32 WAV: decoded exactly
    expect(comparisonSelectors.measuring(store.getState())?.jobId).toBe('job-7');
    expect(comparisonSelectors.measuringLabel(store.getState())).toMatch(/^Measuring on the host/);
    expect(host.calls).toEqual(['start withoutAudio=true', 'result job-7']);
    host.finish();
    await done;
    const final = store.getState().comparison!;
    expect(final.historyId).toBe(ID);
    expect(final.a?.samples).toBe(shown.a?.samples);
    expect(comparisonSelectors.measuring(store.getState())).toBeUndefined();
  });

  it('Cancel cancels the host job and clears the screen, saying nothing was saved', async () => {
    const host = slowHost();
    const store = createStudioStore(host.studio);
    const done = store.getState().importFiles(files);
    await tick();
    await store.getState().cancelMeasuring();
    await done;
    expect(host.calls).toContain('cancel job-7');
    expect(store.getState().comparison).toBeUndefined();
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual(['Import of a.wav and b.wav cancelled; nothing was saved.']);
  });

  it('Cancel before the host has a job id cancels the job as soon as it has one', async () => {
    const host = slowHost();
    const store = createStudioStore(host.studio);
    const done = store.getState().importFiles(files);
    // Synchronously after the decode: the start call has not answered yet.
    expect(comparisonSelectors.measuring(store.getState())?.jobId).toBeUndefined();
    await store.getState().cancelMeasuring();
    await done;
    expect(host.calls).toEqual(['start withoutAudio=true', 'cancel job-7', 'result job-7']);
    expect(store.getState().comparison).toBeUndefined();
  });
});
