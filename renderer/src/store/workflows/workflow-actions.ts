import type { StateCreator } from 'zustand/vanilla';
import type { JobProgress } from '../../../../electron/common/api/jobs.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../../electron/common/errors.js';
import { rememberEndpoints } from '../../lib/saved-endpoints.js';
import { userErrorText } from '../../lib/user-error.js';
import { formSelectors } from '../job/form-selectors.js';
import type { StudioState } from '../studio-store.js';

/**
 * The actions that span slices, in one place: running the form's comparison (job state, notices, the
 * comparison on screen, history, the sweep dashboard) and routing job progress to whoever shows it. The
 * slices keep their own state and setters.
 */
export interface WorkflowActions {
  /** Synthesizes A and B and compares them; progress arrives through `trackProgress`. */
  start(): Promise<void>;
  /** A job's progress event, to the running synthesis or the measuring import it belongs to. */
  trackProgress(jobId: string, progress: JobProgress): void;
}

const HINTS: Record<string, string> = {
  profile: 'Fix the profile string (the field shows the valid keys), then synthesize again.',
  input: 'Change what the message names (the prompt or a setting), then synthesize again.',
  bundle: 'The model bundle is damaged or missing: rebuild it (parity bundle) and restart the studio.',
  engine: 'The engine failed; try again, or another execution provider.',
  endpoint: 'Check the server the message names (running, on that port, answering in wav or pcm), then compare again.',
};

export const createWorkflowActions =
  (studio: StudioApi): StateCreator<StudioState, [], [], WorkflowActions> =>
  (set, get) => ({
    trackProgress(jobId, progress) {
      if (get().jobId === jobId && get().status === 'running') set({ progress });
      const m = get().measuring;
      if (m?.jobId === jobId) get().patchMeasuring(m.token, { progress });
    },
    async start() {
      if (get().status === 'running' || formSelectors.synthBlocked(get()) !== undefined) return;
      const { text, profileA, profileB, seed, sampling, teacherForce } = get().form;
      get().clearActionNotices();
      set({ status: 'running', progress: undefined, error: undefined, result: undefined, jobId: undefined });
      const sweepShownAtStart = get().sweepShown;
      try {
        const { jobId } = await studio.compare({
          text,
          profileA,
          profileB,
          seed,
          sampling,
          ...(teacherForce ? { teacherForce } : {}),
        });
        set({ jobId });
        const result = await studio.comparisonResult({ jobId });
        rememberEndpoints([profileA, profileB]);
        set({ status: 'done', result });
        // Gone back to the sweep while this ran: the result waits behind the dashboard (and in history).
        get().showComparison(result, { behindSweep: get().sweepShown && !sweepShownAtStart });
        void get().loadHistory();
      } catch (error) {
        const kind = error instanceof ParityError ? error.kind : 'internal';
        const message = userErrorText(error);
        set({ status: kind === 'cancelled' ? 'cancelled' : 'failed', error: { kind, message } });
        // A profile error is shown once, under the buttons (ProgressPanel); the rest as notices with what to do.
        if (kind !== 'cancelled' && kind !== 'profile')
          get().notify(
            'error',
            `Synthesis failed: ${message}`,
            HINTS[kind] ?? 'Check the settings and try again.',
          );
      }
    },
  });
