import { InputError } from '../../common/errors.js';

/**
 * Teacher forcing (docs/forensics.md "Teacher forcing"): the run still computes its own logits and
 * picks its own code at every step and codebook, but what it feeds on (the code predictor's next input,
 * the talker's audio feedback, the vocoder) is the teacher's code. The run's own picks are kept for the
 * step trace, so a pick that differs from the teacher's is a "would-flip", with no cascade after it.
 */
export class TeacherForcing {
  private readonly own: number[];

  /** codes: the teacher's [frames, q] row-major, as SynthesisResult.codes. */
  constructor(
    private readonly codes: Int32Array,
    frames: number,
    private readonly q: number,
  ) {
    if (codes.length !== frames * q) {
      throw new InputError(`teacher forcing: the teacher's codes hold ${codes.length / q} frames of ${q} codes, this synthesis makes ${frames} frames`);
    }
    this.own = new Array<number>(q);
  }

  /** Records the run's own pick and returns the teacher's code for (step, codebook), the one to feed on. */
  choose(step: number, codebook: number, own: number): number {
    this.own[codebook] = own;
    return this.codes[(step - 1) * this.q + codebook];
  }

  /** The run's own picks of the step just finished (codebooks 0..q−1). */
  ownFrame(): number[] {
    return [...this.own];
  }
}
