/** The special codes a delay pattern forces. */
export interface DelayCodes {
  bos: number;
  eos: number;
  pad: number;
}

/**
 * A delay pattern at emission time (docs/bundle-format.md, "Delay pattern"), as transformers' Dia generate()
 * applies it: codebook k of frame f is emitted at step f + delays[k]. Before its first frame a codebook emits
 * BOS (steps 1..delays[k]: the delay mask DiaProcessor builds, generation_dia.py `apply_delay_mask`); codebook 0's
 * EOS at step e (its own, or forced at step `frames + 1`) ends the take: codebook k emits EOS at step e + delays[k]
 * (DiaEOSDelayPatternLogitsProcessor) and PAD after it (generate()'s padding of finished rows); the take ends at
 * step e + max delay, with e − 1 frames.
 */
export class DelayPatternEmission {
  private eosStep: number | undefined;
  readonly maxDelay: number;

  /** frames: the frame count the text asks for; codebook 0's EOS is forced at step frames + 1. */
  constructor(
    private readonly delays: readonly number[],
    private readonly codes: DelayCodes,
    private readonly frames: number,
  ) {
    this.maxDelay = Math.max(0, ...delays);
  }

  /** The most steps a take can run: frames + 1 (codebook 0's EOS) + the largest delay. */
  get maxSteps(): number {
    return this.frames + 1 + this.maxDelay;
  }

  /** The code step `step` (from 1) must emit in codebook k whatever its logits say, or undefined: sample it. */
  forced(step: number, k: number): number | undefined {
    const delay = this.delays[k];
    if (step <= delay) return this.codes.bos;
    if (this.eosStep !== undefined) {
      const eosAt = this.eosStep + delay;
      if (step === eosAt) return this.codes.eos;
      if (step > eosAt) return this.codes.pad;
    } else if (k === 0 && step === this.frames + 1) return this.codes.eos;
    return undefined;
  }

  /** Codebook 0 emitted `code` at `step`: its first EOS ends the take. */
  emittedCodebook0(step: number, code: number): void {
    if (this.eosStep === undefined && code === this.codes.eos) this.eosStep = step;
  }

  /** Whether `step` was the take's last: every codebook has emitted its EOS. */
  finishedAt(step: number): boolean {
    return this.eosStep !== undefined && step >= this.eosStep + this.maxDelay;
  }

  /** Frames of the take: those before codebook 0's EOS (0 until it is emitted). */
  get frameCount(): number {
    return this.eosStep === undefined ? 0 : this.eosStep - 1;
  }

  /** emitted: [steps, q] row-major, step s at row s − 1. Returns the frames [frameCount, q]: frame f, codebook k = step f + delays[k]. */
  framesOf(emitted: Int32Array): Int32Array {
    const q = this.delays.length;
    const out = new Int32Array(this.frameCount * q);
    for (let f = 1; f <= this.frameCount; f++) {
      for (let k = 0; k < q; k++) out[(f - 1) * q + k] = emitted[(f + this.delays[k] - 1) * q + k];
    }
    return out;
  }
}
