import type { StateCreator } from 'zustand/vanilla';
import type { ExportedFixture, HistoryEntry } from '../../../../electron/common/api/history.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../../electron/common/api/studio-shell.js';
import { ParityError } from '../../../../electron/common/errors.js';
import type { StudioState } from '../studio-store.js';
import { busyGuard } from './busy-guard.js';

export interface HistorySlice {
  history: HistoryEntry[];
  busy?: string;
  lastExport?: ExportedFixture;
  /** An export refused because the folder exists: the user is asked before replacing it. */
  pendingOverwrite?: { dir: string };
  /** The entry whose row asks "Delete …?" first: the host removes the folder, which cannot be undone. */
  pendingDelete?: { id: string; title: string };
  /** What the history list last said in its live region; `shown` also on screen (the question is in its row). */
  historyStatus?: { shown: boolean; text: string };
  loadHistory(): Promise<void>;
  /** The first step of a removal: the row asks; nothing is removed yet. */
  askDelete(id: string): void;
  /** Answers the question with Keep. */
  keepEntry(): void;
  exportCurrent(overwrite?: boolean): Promise<void>;
  cancelOverwrite(): void;
}

export const createHistorySlice =
  (studio: StudioApi, shell?: StudioShell): StateCreator<StudioState, [], [], HistorySlice> =>
  (set, get) => {
    const guard = busyGuard(set, get);
    return {
      history: [],
      async loadHistory() {
        await guard('Listing history', 'Check that the studio server is running, then reload the page.', async () => {
          set({ history: (await studio.listHistory()).entries });
        });
      },
      askDelete(id) {
        const entry = get().history.find((e) => e.id === id);
        if (!entry) return;
        set({
          pendingDelete: { id, title: entry.title },
          historyStatus: { shown: false, text: `Delete “${entry.title}”? Press Delete again or Enter on Delete to remove it for good; Escape or Enter on Keep keeps it.` },
        });
      },
      keepEntry() {
        const pending = get().pendingDelete;
        if (!pending) return;
        set({ pendingDelete: undefined, historyStatus: { shown: false, text: `Kept “${pending.title}”.` } });
      },
      async exportCurrent(overwrite = false) {
        const id = get().comparison?.historyId;
        if (!id) return;
        await guard('Export', 'Choose another folder, or allow replacing the existing one.', async () => {
          const dir = get().pendingOverwrite?.dir ?? (shell ? (await shell.chooseExportDir()).path : (await studio.exportLocation({ id })).dir);
          if (!dir) return;
          try {
            set({ lastExport: await studio.exportFixture({ id, dir, overwrite }), pendingOverwrite: undefined });
          } catch (error) {
            if (!overwrite && error instanceof ParityError && error.reason === 'exists') {
              set({ pendingOverwrite: { dir } });
              return;
            }
            set({ pendingOverwrite: undefined });
            throw error;
          }
        });
      },
      cancelOverwrite: () => set({ pendingOverwrite: undefined }),
    };
  };
