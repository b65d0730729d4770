import type { StateCreator } from 'zustand/vanilla';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../../electron/common/errors.js';
import { busyGuard } from '../history/busy-guard.js';
import { classifyImport, type ImportPlan, type PickedFile } from '../history/classify-import.js';
import { decodePair } from '../history/decode-pair.js';
import { historySelectors } from '../history/history-selectors.js';
import type { StudioState } from '../studio-store.js';

type OkPlan = Extract<ImportPlan, { ok: true }>;
type WavPlan = Extract<OkPlan, { kind: 'wavs' }>;

/**
 * What puts a history entry on screen or takes it away: opening, importing (WAVs measured by the host as a
 * job, or traces), swapping and deleting. Each spans slices: the comparison on screen, the notices, the
 * failed synthesis it replaces and the history list.
 */
export interface HistoryWorkflows {
  openHistory(id: string): Promise<void>;
  /** Removes the entry at once; one on screen leaves the results pane (clearComparison). */
  deleteHistory(id: string): Promise<void>;
  /** Answers the row's "Delete …?" with Delete; true when the entry is gone. */
  confirmDelete(): Promise<boolean>;
  importFiles(files: PickedFile[]): Promise<void>;
  /** Stops the host's measuring of the WAV import on screen; nothing is saved and its audio leaves the screen. */
  cancelMeasuring(): Promise<void>;
  /**
   * Imports the pair on screen again with A and B exchanged (a new history entry), from the files the host
   * kept with the entry, so it works on a reopened entry too.
   */
  swapImport(): Promise<void>;
}

const IMPORT_HINT = 'Choose two WAV files (PCM 8–32 bit or float), two tts-parity-trace/1 files, or both traces with their WAVs (and their module sidecars).';

export const createHistoryWorkflows =
  (studio: StudioApi): StateCreator<StudioState, [], [], HistoryWorkflows> =>
  (set, get) => {
    const guard = busyGuard(set, get);
    /** A new action replaces what is on screen: the notices and failed synthesis of the last one go. */
    const beginAction = () => {
      get().clearActionNotices();
      get().clearFailure();
      set({ historyStatus: undefined });
    };
    /**
     * Two WAVs: their audio is decoded here and drawn at once (showMeasuring), the host measures them as a
     * job (progress, cancelMeasuring), and its result replaces the provisional view, keeping the zoom.
     * A result for an import that is no longer on screen (cancelled, or another action since) is dropped.
     */
    const runWavImport = (plan: WavPlan) =>
      guard('Import', IMPORT_HINT, async () => {
        const token = {};
        const audio = decodePair(plan.a, plan.b);
        if (audio) get().showMeasuring(audio, { token, names: [plan.a.name, plan.b.name] });
        const current = () => !audio || get().measuring?.token === token;
        try {
          const { jobId } = await studio.startImportWavs({ a: plan.a, b: plan.b, ...(audio ? { withoutAudio: true } : {}) });
          get().patchMeasuring(token, { jobId });
          if (!current() || get().measuring?.cancelling) {
            await studio.cancel({ jobId });
            if (!current()) return;
          }
          const result = await studio.comparisonResult({ jobId });
          if (!current()) return;
          // The same arrays as on screen (the host decodes the same bytes with the same decoder), so the
          // lanes' pyramids and the raw difference are not built again.
          get().showComparison(audio ? { ...result, ...audio } : result, { keepView: Boolean(audio) });
        } catch (error) {
          if (!current()) return;
          if (audio) get().clearComparison();
          if (error instanceof ParityError && error.kind === 'cancelled') {
            get().notify('info', `Import of ${plan.a.name} and ${plan.b.name} cancelled; nothing was saved.`);
            return;
          }
          throw error;
        }
        await get().loadHistory();
      });
    const runTraceImport = (plan: Extract<OkPlan, { kind: 'traces' }>) =>
      guard('Import', IMPORT_HINT, async () => {
        const result = await studio.importTraces({
          a: plan.a,
          b: plan.b,
          ...(plan.wavA && plan.wavB ? { wavA: plan.wavA, wavB: plan.wavB } : {}),
          ...(plan.modulesA && plan.modulesB ? { modulesA: plan.modulesA, modulesB: plan.modulesB } : {}),
        });
        get().showComparison(result);
        await get().loadHistory();
      });
    return {
      async openHistory(id) {
        beginAction();
        await guard('Opening the comparison', 'It may have been deleted; pick another entry.', async () => {
          get().showComparison(await studio.openHistory({ id }));
        });
      },
      async deleteHistory(id) {
        await guard('Deleting', 'Reload the history list and try again.', async () => {
          await studio.deleteHistory({ id });
          set((s) => ({ history: s.history.filter((e) => e.id !== id), pendingDelete: s.pendingDelete?.id === id ? undefined : s.pendingDelete }));
          // Left on screen, it would look as if it still existed (and Export, ABX save, drill-down would fail).
          if (get().comparison?.historyId === id) get().clearComparison();
        });
      },
      async confirmDelete() {
        const pending = get().pendingDelete;
        if (!pending) return false;
        const onScreen = get().comparison?.historyId === pending.id;
        await get().deleteHistory(pending.id);
        const gone = !get().history.some((e) => e.id === pending.id);
        set({
          pendingDelete: undefined,
          historyStatus: gone
            ? { shown: true, text: `Deleted “${pending.title}”${onScreen ? '; it was on screen, so the results are cleared' : ''}.` }
              : { shown: true, text: `“${pending.title}” was not deleted (see the notice).` },
        });
        return gone;
      },
      async importFiles(files) {
        beginAction();
        const plan = classifyImport(files);
        if (!plan.ok) {
          get().notify('error', plan.message, plan.hint);
          return;
        }
        await (plan.kind === 'wavs' ? runWavImport(plan) : runTraceImport(plan));
      },
      async cancelMeasuring() {
        const m = get().measuring;
        if (!m || m.cancelling) return;
        get().patchMeasuring(m.token, { cancelling: true });
        if (m.jobId) await studio.cancel({ jobId: m.jobId });
      },
      async swapImport() {
        const id = get().comparison?.historyId;
        if (!id || !historySelectors.canSwap(get())) return;
        beginAction();
        await guard('Swap A/B', 'Import the two files again in the other order.', async () => {
          get().showComparison(await studio.swapHistory({ id }));
          await get().loadHistory();
        });
      },
    };
  };
