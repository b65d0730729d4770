import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../electron/common/api/studio-shell.js';
import { InputError, WavError } from '../../../electron/common/errors.js';
import { historySelectors } from '../../../renderer/src/store/history/history-selectors.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-selectors.js';
import { createStudioStore, silentPlayer } from '../../../renderer/src/store/studio-store.js';

const ID = '20250101-000000-abcdef';
const result = { historyId: ID, report: { verdict: 'diverged', metrics: {} } };

/**
 * A StudioApi double whose export refuses an existing folder as the host does: an InputError with
 * reason 'exists' (its text is for people and is not what the renderer reads). `refusal` replaces it.
 */
function fakeStudio(refusal = (dir: string) => new InputError(`${dir} is already there; choose Replace to replace it`, dir, 'exists')) {
  const existing = new Set<string>();
  const calls: string[] = [];
  const studio = {
    exportLocation: async () => ({ dir: `/data/exports/${ID}` }),
    exportFixture: async ({ dir, overwrite }: { dir: string; overwrite: boolean }) => {
      calls.push(`export ${dir} ${overwrite}`);
      if (existing.has(dir) && !overwrite) throw refusal(dir);
      existing.add(dir);
      return { dir, files: ['a.wav', 'b.wav', 'diff.wav', 'report.json'] };
    },
    // A WAV import is a job: the host reads the files when it starts (so a bad one is refused then).
    startImportWavs: async ({ b }: { b: { name: string } }) => {
      if (b.name.endsWith('.txt')) throw new WavError(b.name, 'not a WAV file: starts with "this", expected "RIFF"');
      return { jobId: 'job-1' };
    },
    comparisonResult: async () => result,
    openHistory: async ({ id }: { id: string }) => ({ ...result, historyId: id }),
    listHistory: async () => ({ entries: [] }),
  } as unknown as StudioApi;
  return { studio, calls };
}

const bytes = new Uint8Array([1, 2, 3]);

describe('history slice: export and import (no React)', () => {
  it('browser mode exports under the data dir; an existing folder is only replaced after asking', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    store.getState().showComparison(result as never);
    await store.getState().exportCurrent();
    expect(historySelectors.lastExport(store.getState())?.dir).toBe(`/data/exports/${ID}`);
    await store.getState().exportCurrent();
    expect(historySelectors.pendingOverwrite(store.getState())).toEqual({ dir: `/data/exports/${ID}` });
    expect(noticesSelectors.notices(store.getState())).toEqual([]); // a question, not an error
    await store.getState().exportCurrent(true);
    expect(f.calls).toEqual([`export /data/exports/${ID} false`, `export /data/exports/${ID} false`, `export /data/exports/${ID} true`]);
    expect(historySelectors.pendingOverwrite(store.getState())).toBeUndefined();
  });

  it('asks before replacing on the error’s reason, not its text: an "already exists" without the reason is a plain failure', async () => {
    // The host's wording before this change: matching it is what the renderer must no longer do.
    const f = fakeStudio((dir) => new InputError(`${dir} already exists; choose Replace to replace it`, dir));
    const store = createStudioStore(f.studio);
    store.getState().showComparison(result as never);
    await store.getState().exportCurrent();
    await store.getState().exportCurrent();
    expect(historySelectors.pendingOverwrite(store.getState())).toBeUndefined();
    expect(noticesSelectors.notices(store.getState()).map((n) => n.message)).toEqual([`Export failed: /data/exports/${ID} already exists; choose Replace to replace it`]);
  });

  it('the desktop shell chooses the folder (save dialog); a cancelled dialog exports nothing', async () => {
    const f = fakeStudio();
    let answer: string | undefined = '/home/me/fixtures/case-1';
    const shell = { chooseExportDir: async () => ({ path: answer }) } as unknown as StudioShell;
    const store = createStudioStore(f.studio, silentPlayer, shell);
    store.getState().showComparison(result as never);
    await store.getState().exportCurrent();
    expect(f.calls).toEqual(['export /home/me/fixtures/case-1 false']);
    answer = undefined;
    await store.getState().exportCurrent();
    expect(f.calls).toHaveLength(1);
  });

  it('a non-WAV import ends in a dismissable notice naming the file and what to do', async () => {
    const f = fakeStudio();
    const store = createStudioStore(f.studio);
    await store.getState().importFiles([
      { name: 'a.wav', bytes },
      { name: 'notes.txt', bytes },
    ]);
    const [notice] = noticesSelectors.notices(store.getState());
    expect(notice.kind).toBe('error');
    expect(notice.message).toMatch(/^Import failed: .*notes\.txt.*RIFF/);
    expect(notice.hint).toMatch(/two WAV files/);
    store.getState().dismiss(notice.id);
    expect(noticesSelectors.notices(store.getState())).toEqual([]);
    await store.getState().importFiles([{ name: 'only.wav', bytes }]);
    expect(noticesSelectors.notices(store.getState())[0].message).toContain('only.wav');
  });

  it('Swap A/B is offered for an entry whose files the host kept, reopened included, and asks the host for it', async () => {
    const [KEPT, OLD, NEW] = [ID, '20250101-000001-bbbbbb', '20250101-000002-cccccc'];
    const swaps: string[] = [];
    const studio = {
      ...fakeStudio().studio,
      // OLD was imported before the host kept imported files: no `swappable`.
      listHistory: async () => ({ entries: [{ id: KEPT, createdAt: '', kind: 'wavs', title: 'a.wav vs b.wav', swappable: true }, { id: OLD, createdAt: '', kind: 'wavs', title: 'c.wav vs d.wav' }] }),
      swapHistory: async ({ id }: { id: string }) => {
        swaps.push(id);
        return { ...result, historyId: NEW };
      },
    } as unknown as StudioApi;
    const store = createStudioStore(studio);
    await store.getState().loadHistory();
    await store.getState().openHistory(OLD);
    expect(historySelectors.canSwap(store.getState())).toBe(false);
    await store.getState().swapImport();
    expect(swaps).toEqual([]);
    await store.getState().openHistory(KEPT);
    expect(historySelectors.canSwap(store.getState())).toBe(true);
    await store.getState().swapImport();
    expect(swaps).toEqual([KEPT]);
    expect(store.getState().comparison?.historyId).toBe(NEW);
  });
});
