import type { Take, TakeGains } from '../../audio/player.js';
import type { StudioState } from '../studio-store.js';

/** Linear gain that brings B to A's loudness: ΔLU = B − A, so B × 10^(−ΔLU/20). 1 when ΔLU is unknown. */
export function matchGain(deltaLU: number | string | undefined): number {
  const d = typeof deltaLU === 'string' ? Number(deltaLU) : (deltaLU ?? NaN);
  return Number.isFinite(d) ? 10 ** (-d / 20) : 1;
}

/** The take the speakers play: X resolves to the current ABX trial's hidden take. */
export function audibleTake(s: StudioState): Take {
  if (s.activeTake === 'X') return s.abx?.currentX ?? 'A';
  return s.activeTake;
}

export const playbackSelectors = {
  activeTake: (s: StudioState) => s.activeTake,
  playing: (s: StudioState) => s.playing,
  position: (s: StudioState) => s.position,
  loop: (s: StudioState) => s.loop,
  loopOn: (s: StudioState) => s.loopOn,
  matchLoudness: (s: StudioState) => s.matchLoudness,
  audibleTake,
  /** Gains of the three synced sources: 1 on the audible take (B loudness-matched if asked), 0 elsewhere. */
  gains: (s: StudioState): TakeGains => {
    const take = audibleTake(s);
    const bGain = s.matchLoudness ? matchGain(s.comparison?.report.metrics?.loudnessDeltaLU) : 1;
    return { A: take === 'A' ? 1 : 0, B: take === 'B' ? bGain : 0, D: take === 'D' ? 1 : 0 };
  },
};
