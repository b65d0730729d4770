import { checkSide } from '../../../../electron/common/profile/check-side.js';
import type { StudioState } from '../studio-store.js';

/** Pure selectors over the job slice; components select the smallest value they need. */
export const jobSelectors = {
  form: (s: StudioState) => s.form,
  status: (s: StudioState) => s.status,
  running: (s: StudioState) => s.status === 'running',
  error: (s: StudioState) => s.error,
  /** 0..100 for the progress bar. */
  percent: (s: StudioState) => Math.round((s.progress?.fraction ?? 0) * 100),
  /** e.g. "Profile A: talker step 12 of 32". */
  progressLabel: (s: StudioState): string => {
    const p = s.progress;
    if (s.status !== 'running') return '';
    if (!p) return 'Starting…';
    // An endpoint side has no steps: its message says what it waits for.
    if ((p.phase === 'A' || p.phase === 'B') && p.totalSteps === 0 && p.message !== undefined) return p.message;
    if (p.phase === 'A' || p.phase === 'B') return `Profile ${p.phase}: ${p.message ?? 'step'} step ${p.step} of ${p.totalSteps}`;
    if (p.phase === 'load') return 'Opening the model bundle…';
    if (p.phase === 'compare') return 'Measuring and localising…';
    return p.message ?? p.phase;
  },
  /** The first problem in a profile field, for an inline message while typing; undefined when valid. */
  profileIssue: (which: 'profileA' | 'profileB') => (s: StudioState) => {
    const check = checkSide(s.form[which]);
    return check.ok ? undefined : check.issue.message;
  },
  verdict: (s: StudioState) => s.result?.report.verdict,
  metrics: (s: StudioState) => s.result?.report.metrics,
  historyId: (s: StudioState) => s.result?.historyId,
};
