import { describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { faultOutcomes } from '../../../electron/common/forensics/fault-outcomes.js';
import { parseProfile } from '../../../electron/common/profile/parse-profile.js';
import { codesCellAt, codesLayout } from '../../../renderer/src/lib/codes-layout.js';
import { sidesSelectors } from '../../../renderer/src/store/comparison/sides-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const ID = '20250101-000000-abcdef';
const shown = (report: object) => {
  const store = createStudioStore({} as StudioApi);
  store.getState().showComparison({ historyId: ID, report } as unknown as ComparisonResult);
  return store.getState();
};
/** A side as the engine reports it: its faults judged by the same rule (faultOutcomes) for a synthesis of `frames` steps. */
const side = (profile: string, frames: number) => ({ profile, faults: parseProfile(profile).faults.length ? faultOutcomes(parseProfile(profile), frames, 8) : undefined });

describe('a fault that never ran is said next to the verdict', () => {
  it('stale-feedback@200 on a 32-step synthesis: not applied, with the reason the CLI prints', () => {
    const s = shown({ kind: 'profiles', verdict: 'within-tolerance', a: side('eager', 32), b: side('graph,fault=stale-feedback@200', 32) });
    expect(sidesSelectors.faultWarning(s)).toEqual({
      none: true,
      lines: ['B (graph,fault=stale-feedback@200): fault stale-feedback@200 was not applied: step 200 never ran: the synthesis ended after 32 steps'],
    });
    // Same report, same object: the selector is stable for React.
    expect(sidesSelectors.faultWarning(s)).toBe(sidesSelectors.faultWarning(s));
  });

  it('one fault ran and one did not: warned, but not as "no fault applied"', () => {
    const s = shown({ kind: 'profiles', verdict: 'diverged', a: side('eager,fault=nan@talker:40', 32), b: side('graph,fault=stale-feedback@8', 32) });
    const w = sidesSelectors.faultWarning(s)!;
    expect(w.none).toBe(false);
    expect(w.lines).toEqual(['A (eager,fault=nan@talker:40): fault nan@talker:40 was not applied: step 40 never ran: the synthesis ended after 32 steps']);
  });

  it('no warning when every fault ran, none was asked, or the report has no profiles', () => {
    expect(sidesSelectors.faultWarning(shown({ kind: 'profiles', a: side('eager', 32), b: side('graph,fault=stale-feedback@8', 32) }))).toBeUndefined();
    expect(sidesSelectors.faultWarning(shown({ kind: 'profiles', a: side('eager', 32), b: side('graph', 32) }))).toBeUndefined();
    expect(sidesSelectors.faultWarning(shown({ sources: { a: { path: 'a.wav' }, b: { path: 'b.wav' } } }))).toBeUndefined();
  });
});

describe('names of A and B', () => {
  it('profiles for a synthesis, file names for imports (folders dropped), traces with their WAVs', () => {
    expect(sidesSelectors.names(shown({ kind: 'profiles', rerun: { text: 'x', profileA: 'eager', profileB: 'graph', seed: 0, sampling: { mode: 'greedy' } } }))).toEqual({ kind: 'profiles', a: 'eager', b: 'graph' });
    expect(sidesSelectors.names(shown({ sources: { a: { path: '/tmp/run/z-engine.wav' }, b: { path: 'C:\\runs\\a-engine.wav' } } }))).toEqual({ kind: 'wavs', a: 'z-engine.wav', b: 'a-engine.wav' });
    expect(sidesSelectors.names(shown({ kind: 'traces', traces: { a: { file: 'run-a.jsonl' }, b: { file: 'run-b.jsonl' } }, sources: { a: { path: 'run-a.wav' }, b: { path: 'run-b.wav' } } }))).toEqual({
      kind: 'traces',
      a: 'run-a.jsonl',
      b: 'run-b.jsonl',
      wavA: 'run-a.wav',
      wavB: 'run-b.wav',
    });
    expect(sidesSelectors.names(createStudioStore({} as StudioApi).getState())).toBeUndefined();
  });
});

describe('codes grid layout', () => {
  it('uses the panel width: 32 frames in 1000 px get (1000 − 58 − 8) / 32 = 29 px columns', () => {
    const l = codesLayout(1000, 32, 8);
    expect(l.cellW).toBe(29);
    expect(l.width).toBe(58 + 32 * 29);
    // Frames labelled from 1, then every 2nd (2 × 29 px ≥ 36 px apart): 1, 2, 4, … 32.
    expect(l.frameTicks.map((t) => t.frame)).toEqual([1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32]);
    // Codebooks labelled 0..Q−1, every row.
    expect(l.codebookTicks.map((t) => t.codebook)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('long takes keep 3 px columns and scroll; labels stay at least 36 px apart', () => {
    const l = codesLayout(800, 600, 8);
    expect(l.cellW).toBe(3);
    expect(l.frameTicks.slice(0, 3).map((t) => t.frame)).toEqual([1, 20, 40]);
    // Few frames: the column width stops at 48 px.
    expect(codesLayout(1400, 4, 8).cellW).toBe(48);
  });

  it('maps a point to frame (from 1) and codebook (from 0); the axis margin is no cell', () => {
    const l = codesLayout(1000, 32, 8);
    expect(codesCellAt(l, 32, 8, 58, 0)).toEqual({ frame: 1, codebook: 0 });
    expect(codesCellAt(l, 32, 8, 58 + 31 * 29 + 28, 8 * 16 - 1)).toEqual({ frame: 32, codebook: 7 });
    expect(codesCellAt(l, 32, 8, 57, 3)).toBeUndefined();
    expect(codesCellAt(l, 32, 8, 100, 8 * 16)).toBeUndefined();
  });
});
