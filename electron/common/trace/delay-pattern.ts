/**
 * Delay patterns (MusicGen, Dia, Higgs Audio): codebook k of frame f is emitted at step f + delays[k], so a
 * step's `codes` hold codebook 0 of one frame, codebook 1 of an earlier one, and so on. The trace header says
 * so with `codebookDelays` (q integers ≥ 0); without it, delays are all 0 and step N is frame N.
 * Documented in docs/trace-format.md "Delay patterns".
 */

/** The frame that codebook `codebook`'s code at `step` belongs to; < 1 where the step emits no frame's code for it (the pattern's lead-in). */
export function frameOfStep(step: number, codebook: number, delays?: readonly number[]): number {
  return step - (delays?.[codebook] ?? 0);
}

/** The step at which codebook `codebook` of `frame` is emitted. */
export function stepOfFrame(frame: number, codebook: number, delays?: readonly number[]): number {
  return frame + (delays?.[codebook] ?? 0);
}

/**
 * Frames from per-step codes: frame f (1-based) takes codebook k from step f + delays[k]. Frames run while
 * codebook 0's step exists; a codebook whose step is missing gets null. Without delays, the steps as they are.
 */
export function codesByFrame(stepCodes: readonly (readonly number[] | null | undefined)[], q: number, delays?: readonly number[]): (number | null)[][] {
  const frames = stepCodes.length - (delays?.[0] ?? 0);
  const out: (number | null)[][] = [];
  for (let f = 1; f <= frames; f++) {
    const row: (number | null)[] = [];
    for (let k = 0; k < q; k++) row.push(stepCodes[stepOfFrame(f, k, delays) - 1]?.[k] ?? null);
    out.push(row);
  }
  return out;
}

/** Where a differing code first shows in the audio: its frame, and the step and codebook that emitted it. */
export interface FrameDivergence {
  frame: number;
  step: number;
  codebook: number;
}

/**
 * The earliest frame whose codes differ between two runs, over every step and codebook: with delays, a later
 * step can hold an earlier frame's code (codebook k at step s is frame s − delays[k]). Lead-in codes (frame
 * < 1) are not a frame's and are skipped. Null when no frame's codes differ.
 */
export function firstDifferingFrame(
  codesA: readonly (readonly number[] | null | undefined)[],
  codesB: readonly (readonly number[] | null | undefined)[],
  delays?: readonly number[],
): FrameDivergence | null {
  const finder = new FirstDifferingFrame(delays);
  for (let s = 1; s <= Math.max(codesA.length, codesB.length); s++) finder.add(codesA[s - 1], codesB[s - 1], s);
  return finder.best;
}

/** firstDifferingFrame fed one step's codes at a time (`step` 1-based, in order), for traces read as a stream. */
export class FirstDifferingFrame {
  best: FrameDivergence | null = null;

  constructor(private readonly delays?: readonly number[]) {}

  add(a: readonly number[] | null | undefined, b: readonly number[] | null | undefined, step: number): void {
    if (!a || !b) return;
    for (let k = 0; k < Math.max(a.length, b.length); k++) {
      if (a[k] === b[k]) continue;
      const frame = frameOfStep(step, k, this.delays);
      if (frame >= 1 && (this.best === null || frame < this.best.frame)) this.best = { frame, step, codebook: k };
    }
  }
}
