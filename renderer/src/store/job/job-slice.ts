import { rememberEndpoints } from '../../lib/saved-endpoints.js';
import type { StateCreator } from 'zustand/vanilla';
import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { JobProgress } from '../../../../electron/common/api/jobs.js';
import type { Sampling } from '../../../../electron/common/api/primitives.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../../electron/common/errors.js';
import { userErrorText } from '../../lib/user-error.js';
import type { StudioState } from '../studio-store.js';
import { formSelectors } from './form-selectors.js';

export type JobStatus = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobForm {
  text: string;
  profileA: string;
  profileB: string;
  seed: number;
  sampling: Sampling;
  /** Teacher-force B on A's codes (docs/forensics.md). */
  teacherForce: boolean;
}

export interface JobSlice {
  form: JobForm;
  jobId?: string;
  status: JobStatus;
  progress?: JobProgress;
  error?: { kind: string; message: string };
  result?: ComparisonResult;
  setForm(patch: Partial<JobForm>): void;
  /** Synthesizes A and B and compares them; progress arrives through `trackProgress`. */
  start(): Promise<void>;
  cancel(): Promise<void>;
  trackProgress(jobId: string, progress: JobProgress): void;
  /** Another action replaced what a failed or cancelled synthesis left on screen: back to idle. */
  clearFailure(): void;
}

const HINTS: Record<string, string> = {
  profile: 'Fix the profile string (the field shows the valid keys), then synthesize again.',
  input: 'Change what the message names (the prompt or a setting), then synthesize again.',
  bundle: 'The model bundle is damaged or missing: rebuild it (parity bundle) and restart the studio.',
  engine: 'The engine failed; try again, or another execution provider.',
  endpoint: 'Check the server the message names (running, on that port, answering in wav or pcm), then compare again.',
};

export const createJobSlice =
  (studio: StudioApi): StateCreator<StudioState, [], [], JobSlice> =>
  (set, get) => ({
    form: {
      text: 'Hello from the parity studio.',
      profileA: 'eager',
      profileB: 'graph',
      seed: 0,
      sampling: { mode: 'greedy', temperature: 1, topK: 0, topP: 1, repetitionPenalty: 1 },
      teacherForce: false,
    },
    status: 'idle',
    setForm: (patch) => set((s) => ({ form: { ...s.form, ...patch } })),
    clearFailure() {
      if (get().status === 'failed' || get().status === 'cancelled') set({ status: 'idle', error: undefined });
    },
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
        const { jobId } = await studio.compare({ text, profileA, profileB, seed, sampling, ...(teacherForce ? { teacherForce } : {}) });
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
        if (kind !== 'cancelled' && kind !== 'profile') get().notify('error', `Synthesis failed: ${message}`, HINTS[kind] ?? 'Check the settings and try again.');
      }
    },
    async cancel() {
      const { jobId, status } = get();
      if (jobId && status === 'running') await studio.cancel({ jobId });
    },
  });
