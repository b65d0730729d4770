import type { StateCreator } from 'zustand/vanilla';
import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { JobProgress } from '../../../../electron/common/api/jobs.js';
import type { Audio } from '../../../../electron/common/api/primitives.js';
import type { StoredReport } from '../../../../electron/common/report/comparison-report.js';
import type { PlayerLike } from '../../audio/player.js';
import type { StudioState } from '../studio-store.js';
import { fitViewport } from '../../lib/viewport.js';
import { timelineSelectors } from '../view/timeline-selectors.js';
import { audioSelectors } from './audio-selectors.js';

/**
 * A WAV import the host is still measuring: its audio, decoded in the page, is already on screen (the
 * lanes that need only the audio), the metrics and verdict come with the host's result.
 */
export interface Measuring {
  /** Identifies this import: a result that arrives for another one is not shown. */
  token: object;
  names: [a: string, b: string];
  /** Once the host has started the job (after the upload). */
  jobId?: string;
  progress?: JobProgress;
  /** Cancel was asked for: before the job id is known, it is cancelled as soon as it is. */
  cancelling?: boolean;
}

/**
 * The report of a comparison being measured: none yet. Every report field the studio reads is optional
 * there (a WAV pair has no steps, traces without audio no metrics), so the panels show nothing of it;
 * `historyId` is empty, so nothing offers to export, save or drill it.
 */
const NO_REPORT_YET = {} as StoredReport;

export interface ComparisonSlice {
  /** The comparison on screen: from a synthesis, an import or history (historyId '' while `measuring`). */
  comparison?: ComparisonResult;
  measuring?: Measuring;
  /**
   * `keepView`: the same audio measured (an import's result after its audio): the zoom, position and loop
   * stay. `playerAfterPaint`: the player's buffers are filled once the lanes are drawn, not before.
   * Neither takes the main view from a sweep dashboard the user went back to; otherwise a comparison
   * shown does (the dashboard keeps its filters). `behindSweep`: a new comparison that leaves it there.
   */
  showComparison(result: ComparisonResult, options?: { keepView?: boolean; playerAfterPaint?: boolean; behindSweep?: boolean }): void;
  /** Shows an import's audio, decoded in the page, while the host measures it. */
  showMeasuring(audio: { a: Audio; b: Audio }, measuring: Measuring): void;
  patchMeasuring(token: object, patch: Partial<Measuring>): void;
  /** Back to the empty results pane (the entry on screen was deleted): audio stopped, its state dropped. */
  clearComparison(): void;
  /** Gives the player the difference now on screen (aligned or raw), keeping the position and play state. */
  reloadDifference(): void;
}

/** What a newly shown (or cleared) comparison starts from: stopped at 0, no loop, zoom, ABX or export state. */
const VIEW_RESET = {
  position: 0,
  playing: false,
  loop: undefined,
  loopOn: false,
  hover: undefined,
  tolerances: undefined,
  abx: undefined,
  lastExport: undefined,
  pendingOverwrite: undefined,
} as const;

/** Runs `work` after the next two animation frames (the lanes draw in the first), or at once outside a page. */
function afterPaint(work: () => void): void {
  // Through globalThis: the store is also type-checked (and unit-tested) without the DOM.
  const frame = (globalThis as { requestAnimationFrame?: (callback: () => void) => number }).requestAnimationFrame;
  if (!frame) return void setTimeout(work, 0);
  frame(() => frame(() => setTimeout(work, 0)));
}

export const createComparisonSlice =
  (player: PlayerLike): StateCreator<StudioState, [], [], ComparisonSlice> =>
  (set, get) => ({
    comparison: undefined,
    showComparison(result, options = {}) {
      const { a, b } = result;
      // A synthesized comparison carries its settings: show them, so "Synthesize" re-runs it.
      const rerun = (result.report as { rerun?: { text: string; profileA: string; profileB: string; seed: number; sampling: StudioState['form']['sampling'] } }).rerun;
      if (rerun) set((s) => ({ form: { ...s.form, text: rerun.text, profileA: rerun.profileA, profileB: rerun.profileB, seed: rerun.seed, sampling: rerun.sampling } }));
      const sampleRate = a?.sampleRate ?? b?.sampleRate;
      const load = () => player.load({ sampleRate: sampleRate!, a: a?.samples, b: b?.samples, d: audioSelectors.difference({ ...get(), comparison: result }).samples });
      // A comparison without audio (traces only) must not leave the previous one's takes playable.
      if (!sampleRate) player.unload();
      else if (!options.playerAfterPaint) load();
      else {
        player.unload();
        afterPaint(() => {
          if (get().comparison === result) load();
        });
      }
      if (options.keepView) {
        const s = get();
        player.setLoop(s.loopOn && s.loop ? s.loop : null);
        set({ comparison: result, measuring: undefined, playing: false, position: s.position });
        return;
      }
      player.setLoop(null);
      set((s) => ({
        ...VIEW_RESET,
        comparison: result,
        measuring: undefined,
        sweepShown: options.behindSweep === true && s.sweepShown,
        viewport: fitViewport(timelineSelectors.duration({ ...s, comparison: result })),
      }));
    },
    showMeasuring({ a, b }, measuring) {
      // First paint first: copying three takes into the player's buffers can wait a frame or two.
      get().showComparison({ historyId: '', report: NO_REPORT_YET, a, b }, { playerAfterPaint: true });
      set({ measuring });
    },
    patchMeasuring(token, patch) {
      const m = get().measuring;
      if (m?.token === token) set({ measuring: { ...m, ...patch } });
    },
    clearComparison() {
      const id = get().comparison?.historyId;
      if (id === undefined) return;
      player.unload();
      player.setLoop(null);
      if (get().drill?.historyId === id) void get().cancelDrill();
      set({ ...VIEW_RESET, comparison: undefined, measuring: undefined, viewport: { start: 0, end: 0 } });
    },
    reloadDifference() {
      const s = get();
      const c = s.comparison;
      const sampleRate = c?.a?.sampleRate ?? c?.b?.sampleRate;
      if (!c || !sampleRate) return;
      const wasPlaying = s.playing;
      player.load({ sampleRate, a: c.a?.samples, b: c.b?.samples, d: audioSelectors.difference(s).samples });
      set({ playing: false });
      // Loading stops the takes: play on from the same position.
      if (wasPlaying) void get().togglePlay();
    },
  });
