import { describe, expect, it } from 'vitest';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../electron/common/api/studio-shell.js';
import { InputError, WavError } from '../../../electron/common/errors.js';
import { historySelectors } from '../../../renderer/src/store/history/history-slice.js';
import { noticesSelectors } from '../../../renderer/src/store/notices/notices-slice.js';
import { createStudioStore, silentPlayer } from '../../../renderer/src/store/studio-store.js';

const ID = '20250101-000000-abcdef';
const result = { historyId: ID, report: { verdict: 'diverged', metrics: {} } };

/** A StudioApi double whose export refuses an existing folder, as the host does. */
function fakeStudio() {
  const existing = new Set<string>();
  const calls: string[] = [];
  const studio = {
    exportLocation: async () => ({ dir: `/data/exports/${ID}` }),
    exportFixture: async ({ dir, overwrite }: { dir: string; overwrite: boolean }) => {
      calls.push(`export ${dir} ${overwrite}`);
      if (existing.has(dir) && !overwrite) throw new InputError(`${dir} already exists; pass --force to replace it`, dir);
      existing.add(dir);
      return { dir, files: ['a.wav', 'b.wav', 'diff.wav', 'report.json'] };
    },
    importWavs: async ({ b }: { b: { name: string } }) => {
      if (b.name.endsWith('.txt')) throw new WavError(b.name, 'not a WAV file: starts with "this", expected "RIFF"');
      return result;
    },
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
});
