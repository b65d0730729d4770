import type { StateCreator } from 'zustand/vanilla';
import type { ExportedFixture, HistoryEntry } from '../../../../electron/common/api/history.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../../electron/common/api/studio-shell.js';
import { ParityError } from '../../../../electron/common/errors.js';
import type { StudioState } from '../studio-store.js';
import { userErrorText } from '../../lib/user-error.js';
import { classifyImport, swapPlan, type ImportPlan, type PickedFile } from './classify-import.js';

type OkPlan = Extract<ImportPlan, { ok: true }>;

export interface HistorySlice {
  history: HistoryEntry[];
  busy?: string;
  lastExport?: ExportedFixture;
  /** An export refused because the folder exists: the user is asked before replacing it. */
  pendingOverwrite?: { dir: string };
  /**
   * The files of the last import, kept in memory so "Swap A/B" can send them again in the other order;
   * dropped when another entry is shown (`showComparison`).
   */
  lastImport?: { historyId: string; plan: OkPlan };
  loadHistory(): Promise<void>;
  openHistory(id: string): Promise<void>;
  deleteHistory(id: string): Promise<void>;
  importFiles(files: PickedFile[]): Promise<void>;
  /** Imports the pair on screen again with A and B exchanged (a new history entry). */
  swapImport(): Promise<void>;
  exportCurrent(overwrite?: boolean): Promise<void>;
  cancelOverwrite(): void;
}

const IMPORT_HINT = 'Choose two WAV files (PCM 8–32 bit or float), two tts-parity-trace/1 files, or both traces with their WAVs.';

export const createHistorySlice =
  (studio: StudioApi, shell?: StudioShell): StateCreator<StudioState, [], [], HistorySlice> =>
  (set, get) => {
    const guard = async (what: string, hint: string, work: () => Promise<void>) => {
      set({ busy: what });
      try {
        await work();
      } catch (error) {
        get().notify('error', `${what} failed: ${userErrorText(error)}`, hint);
      } finally {
        set({ busy: undefined });
      }
    };
    /** A new action replaces what is on screen: the notices and failed synthesis of the last one go. */
    const beginAction = () => {
      get().clearActionNotices();
      get().clearFailure();
    };
    const runImport = (plan: OkPlan) =>
      guard('Import', IMPORT_HINT, async () => {
        const result =
          plan.kind === 'wavs'
            ? await studio.importWavs({ a: plan.a, b: plan.b })
            : await studio.importTraces({ a: plan.a, b: plan.b, ...(plan.wavA && plan.wavB ? { wavA: plan.wavA, wavB: plan.wavB } : {}) });
        get().showComparison(result);
        set({ lastImport: { historyId: result.historyId, plan } });
        await get().loadHistory();
      });
    return {
      history: [],
      async loadHistory() {
        await guard('Listing history', 'Check that the studio server is running, then reload the page.', async () => {
          set({ history: (await studio.listHistory()).entries });
        });
      },
      async openHistory(id) {
        beginAction();
        await guard('Opening the comparison', 'It may have been deleted; pick another entry.', async () => {
          get().showComparison(await studio.openHistory({ id }));
        });
      },
      async deleteHistory(id) {
        await guard('Deleting', 'Reload the history list and try again.', async () => {
          await studio.deleteHistory({ id });
          set((s) => ({ history: s.history.filter((e) => e.id !== id) }));
        });
      },
      async importFiles(files) {
        beginAction();
        const plan = classifyImport(files);
        if (!plan.ok) {
          get().notify('error', plan.message, plan.hint);
          return;
        }
        await runImport(plan);
      },
      async swapImport() {
        const last = get().lastImport;
        if (!last || last.historyId !== get().comparison?.historyId) return;
        beginAction();
        await runImport(swapPlan(last.plan));
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

export const historySelectors = {
  entries: (s: StudioState) => s.history,
  busy: (s: StudioState) => s.busy,
  lastExport: (s: StudioState) => s.lastExport,
  pendingOverwrite: (s: StudioState) => s.pendingOverwrite,
  /** True when the comparison on screen is the import just made, whose files are still in memory. */
  canSwap: (s: StudioState) => s.lastImport !== undefined && s.lastImport.historyId === s.comparison?.historyId,
};
