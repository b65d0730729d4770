import { isBlankPrompt, promptLength } from '../../lib/text-limit.js';
import type { StudioState } from '../studio-store.js';
import { jobSelectors } from './job-selectors.js';

/** The settings a synthesized comparison was made with (its report's `rerun`). */
interface Rerun {
  text: string;
  profileA: string;
  profileB: string;
  seed: number;
  sampling: StudioState['form']['sampling'];
}

const rerunOf = (s: StudioState): Rerun | undefined => (s.comparison?.report as { rerun?: Rerun } | undefined)?.rerun;

const sameSampling = (a: Rerun['sampling'], b: Rerun['sampling']): boolean =>
  a.mode === b.mode && (a.mode === 'greedy' || (a.temperature === b.temperature && a.topK === b.topK && a.topP === b.topP && a.repetitionPenalty === b.repetitionPenalty));

export const formSelectors = {
  text: (s: StudioState) => s.form.text,
  seed: (s: StudioState) => s.form.seed,
  sampling: (s: StudioState) => s.form.sampling,
  teacherForce: (s: StudioState) => s.form.teacherForce,
  profile: (which: 'profileA' | 'profileB') => (s: StudioState) => s.form[which],
  /**
   * Why Synthesize is off, in words, or undefined when it may run. The problem itself is shown once
   * where it is (the header for the bundle, the field for a profile); this only points there.
   */
  synthBlocked: (s: StudioState): string | undefined => {
    if (s.bundleError !== undefined) return 'Synthesis is off: the model bundle could not be opened (the notice says why).';
    const bad = (['profileA', 'profileB'] as const).filter((w) => jobSelectors.profileIssue(w)(s) !== undefined);
    if (bad.length > 0) return `Fix ${bad.map((w) => (w === 'profileA' ? 'Profile A' : 'Profile B')).join(' and ')} to synthesize.`;
    if (isBlankPrompt(s.form.text)) return 'Type a prompt to synthesize (it is empty or only spaces).';
    if (promptLength(s.form.text, s.bundle?.tokenizer)?.over) return 'Shorten the prompt to synthesize.';
    return undefined;
  },
  /** A note when the comparison on screen was made with other settings than the form now holds. */
  staleNote: (s: StudioState): string | undefined => {
    const r = rerunOf(s);
    if (!r) return undefined;
    const f = s.form;
    if (f.text === r.text && f.profileA === r.profileA && f.profileB === r.profileB && f.seed === r.seed && sameSampling(f.sampling, r.sampling)) return undefined;
    return `These results are for ${r.profileA} vs ${r.profileB}; the settings changed since. Synthesize to update them.`;
  },
};
