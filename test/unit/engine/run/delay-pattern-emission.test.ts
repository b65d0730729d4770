import { describe, expect, it } from 'vitest';
import { DelayPatternEmission } from '../../../../electron/engine/run/delay-pattern-emission.js';

// Dia's special codes in the tiny recipe (python/tests/real/hf_recipes.py): codes 0..63, EOS 64, PAD 65, BOS 66.
const CODES = { bos: 66, eos: 64, pad: 65 };
const DELAYS = [0, 2, 3, 4];
const S = 7; // a code the tests pick for "sampled"

/** Step by step what the emission forces (undefined: sampled, shown as S), with codebook 0 emitting `code0(step)`. */
function run(frames: number, code0: (step: number) => number): number[][] {
  const e = new DelayPatternEmission(DELAYS, CODES, frames);
  const rows: number[][] = [];
  for (let s = 1; s <= e.maxSteps; s++) {
    const row = DELAYS.map((_, k) => e.forced(s, k) ?? (k === 0 ? code0(s) : S));
    e.emittedCodebook0(s, row[0]);
    rows.push(row);
    if (e.finishedAt(s)) break;
  }
  return rows;
}

describe('DelayPatternEmission (transformers generation_dia.py)', () => {
  it('forces BOS for the first delays[k] steps, EOS at e + delays[k] after codebook 0 forced EOS at frames + 1, PAD after', () => {
    // DiaEOSDelayPatternLogitsProcessor's docstring table for delays [0, 2, 3, 4]: C0 EOS at s, C1 at s+2, C2 at
    // s+3, C3 at s+4, PAD after each; the lead-in is DiaProcessor's delayed BOS prompt. frames 3: EOS at step 4.
    expect(run(3, () => S)).toEqual([
      [S, 66, 66, 66],
      [S, 66, 66, 66],
      [S, S, 66, 66],
      [64, S, S, 66],
      [65, S, S, S],
      [65, 64, S, S],
      [65, 65, 64, S],
      [65, 65, 65, 64],
    ]);
  });

  it('codebook 0 emitting EOS itself (step 2) ends the take early: one frame, the others follow by their delays', () => {
    const e = new DelayPatternEmission(DELAYS, CODES, 5);
    const rows = run(5, (s) => (s === 2 ? 64 : S));
    expect(rows.map((r) => r[0])).toEqual([S, 64, 65, 65, 65, 65]);
    expect(rows.map((r) => r[3])).toEqual([66, 66, 66, 66, S, 64]); // step 2 + 4; frame 1 of codebook 3 at step 5
    expect(rows.length).toBe(6);
    expect(e.maxSteps).toBe(5 + 1 + 4);
  });

  it('framesOf undoes the delay: frame f, codebook k is what step f + delays[k] emitted', () => {
    const e = new DelayPatternEmission(DELAYS, CODES, 2);
    const emitted: number[][] = [];
    for (let s = 1; s <= e.maxSteps; s++) {
      // codebook k's real codes at steps 1 + d .. 2 + d are 10k + frame; the rest as the emission forces them
      const row = DELAYS.map((d, k) => e.forced(s, k) ?? 10 * k + (s - d));
      e.emittedCodebook0(s, row[0]);
      emitted.push(row);
    }
    expect(e.frameCount).toBe(2);
    expect([...e.framesOf(Int32Array.from(emitted.flat()))]).toEqual([1, 11, 21, 31, 2, 12, 22, 32]);
  });

  it("without delays (all 0) there is no lead-in, and the take ends on codebook 0's EOS step with every codebook EOS", () => {
    const e = new DelayPatternEmission([0, 0], CODES, 1);
    expect([e.forced(1, 0), e.forced(1, 1)]).toEqual([undefined, undefined]);
    expect([e.forced(2, 0), e.forced(2, 1)]).toEqual([64, undefined]);
    e.emittedCodebook0(2, 64);
    expect(e.forced(2, 1)).toBe(64);
    expect(e.finishedAt(2)).toBe(true);
  });
});
