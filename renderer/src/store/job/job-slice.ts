import type { StateCreator } from 'zustand/vanilla';
import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { JobProgress } from '../../../../electron/common/api/jobs.js';
import type { Sampling } from '../../../../electron/common/api/primitives.js';
import type { StudioApi } from '../../../../electron/common/api/studio-api.js';
import type { StudioState } from '../studio-store.js';

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
  cancel(): Promise<void>;
  /** Another action replaced what a failed or cancelled synthesis left on screen: back to idle. */
  clearFailure(): void;
}

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
      if (get().status === 'failed' || get().status === 'cancelled')
        set({ status: 'idle', error: undefined });
    },
    async cancel() {
      const { jobId, status } = get();
      if (jobId && status === 'running') await studio.cancel({ jobId });
    },
  });
