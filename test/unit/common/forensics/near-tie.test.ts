import { describe, expect, it } from 'vitest';
import { flipLines } from '../../../../electron/common/forensics/divergence-summary.js';
import { Divergence } from '../../../../electron/common/forensics/divergence.js';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { DEFAULT_NEAR_TIE_GAP, firstCodeFlip } from '../../../../electron/common/forensics/near-tie.js';
import { verdictOf, verdictWords } from '../../../../electron/common/forensics/verdict.js';
import type { LogitStats, StepRecord } from '../../../../electron/common/trace/step-record.js';

// Hand-built rows: logits are dyadic fractions (exact in binary), so every expected gap and margin
// below is computed by hand and compared exactly.

function row(top: [id: number, logit: number][], mean = 0): LogitStats {
  return { mean, std: 1, min: -3, max: top[0]?.[1] ?? 0, argmax: top[0]?.[0] ?? 0, top5: top.map(([id, logit]) => ({ id, logit })) };
}

const PLAIN = row([[7, 3], [8, 2], [9, 1.5], [10, 1.25], [11, 1]]);

function step(n: number, codes: number[], talker = PLAIN, predictor?: LogitStats[]): StepRecord {
  return { step: n, logits: talker, codes, ...(predictor ? { codePredictorLogits: predictor } : {}) };
}

/** Two runs equal at step 1; at step 2 A picks 81 and B picks 65 from the given talker rows. */
function talkerFlip(a: LogitStats, b: LogitStats): [StepRecord[], StepRecord[]] {
  return [
    [step(1, [7, 1]), step(2, [81, 1], a)],
    [step(1, [7, 1]), step(2, [65, 1], b)],
  ];
}

// A: 81 at 2.5, 65 at 2.4375 (gap 0.0625). B: 65 at 2.5, 81 at 2.46875 (gap 0.03125).
const SWAP_A = row([[81, 2.5], [65, 2.4375], [3, 2], [4, 1.75], [5, 1.5]]);
const SWAP_B = row([[65, 2.5], [81, 2.46875], [3, 2], [4, 1.75], [5, 1.5]]);

describe('firstCodeFlip (hand-built traces)', () => {
  it('a swap of the two top codes: gaps, margins and pairDrift by hand; near-tie under 0.1', () => {
    const [a, b] = talkerFlip(SWAP_A, SWAP_B);
    // marginA = 2.5 − 2.4375 = 0.0625; marginB = 2.5 − 2.46875 = 0.03125; pairDrift = 0.09375 ≤ 0.1.
    expect(firstCodeFlip(a, b)).toMatchObject({
      step: 2, codebook: 0, codeA: 81, codeB: 65,
      gapA: 0.0625, gapB: 0.03125, marginA: 0.0625, marginB: 0.03125, pairDrift: 0.09375, exact: true,
      threshold: 0.1, kind: 'near-tie', driftBefore: 0, numericallyEquivalent: true,
    });
  });

  it('the same swap is real under a threshold below its pairDrift (0.0625 < 0.09375)', () => {
    const [a, b] = talkerFlip(SWAP_A, SWAP_B);
    const flip = firstCodeFlip(a, b, 0.0625)!;
    expect(flip).toMatchObject({ kind: 'real', numericallyEquivalent: false, threshold: 0.0625 });
    expect(flip.detail).toContain('> near-tie gap 0.0625');
  });

  it('a small gap on one side alone is not a near-tie: the other code far down A\'s row makes pairDrift large', () => {
    // A: 81 at 2.5, runner-up 32 at 2.4375 (gap 0.0625), 65 at 1 (rank 5). B picks 65 at 3, 81 at 1.
    const a = row([[81, 2.5], [32, 2.4375], [40, 2], [43, 1.5], [65, 1]]);
    const b = row([[65, 3], [56, 2.5], [9, 2], [46, 1.5], [81, 1]]);
    // marginA = 2.5 − 1 = 1.5, marginB = 3 − 1 = 2, pairDrift 3.5.
    expect(firstCodeFlip(...talkerFlip(a, b))).toMatchObject({ gapA: 0.0625, gapB: 0.5, marginA: 1.5, marginB: 2, pairDrift: 3.5, exact: true, kind: 'real' });
  });

  it('a pick that is not its own top-1 (a repetition penalty acts on processed logits): pairDrift is |marginA + marginB|', () => {
    // A picks 81 (raw 2.4375) over 65 (raw 2.5): marginA = −0.0625; B picks 65: marginB = 2.5 − 2.46875 = 0.03125.
    const a = row([[65, 2.5], [81, 2.4375], [3, 2], [4, 1.75], [5, 1.5]]);
    expect(firstCodeFlip(...talkerFlip(a, SWAP_B))).toMatchObject({ marginA: -0.0625, marginB: 0.03125, pairDrift: 0.03125, kind: 'near-tie' });
  });

  it('codes outside the other side\'s top-5 give a lower bound: real above the threshold, unknown below it', () => {
    const a = row([[16, 3], [32, 2], [40, 1.5], [43, 1.25], [39, 1]]);
    const b = row([[99, 2.75], [56, 2.25], [9, 2], [46, 1.5], [85, 1.25]]);
    // marginA ≥ 3 − 1 = 2 (99 ≤ A's 5th logit), marginB ≥ 2.75 − 1.25 = 1.5: pairDrift ≥ 3.5.
    const [sa, sb] = talkerFlip(a, b);
    sa[1].codes[0] = 16;
    sb[1].codes[0] = 99;
    expect(firstCodeFlip(sa, sb)).toMatchObject({ marginA: null, marginB: null, pairDrift: 3.5, exact: false, kind: 'real' });
    expect(firstCodeFlip(sa, sb, 4)).toMatchObject({ pairDrift: 3.5, exact: false, kind: 'unknown', numericallyEquivalent: false });
  });

  it('a code-predictor flip reads codePredictorLogits[c − 1]; the flip step\'s earlier rows count as before it', () => {
    const same = row([[2, 1], [3, 0.5]]);
    // Codebook 2 flips (A 12, B 13); the talker row of step 2 differs by 0.25 in its mean.
    const cpA = row([[12, 1.5], [13, 1.46875], [1, 1], [2, 0.5], [3, 0.25]]);
    const cpB = row([[13, 1.5], [12, 1.5], [1, 1], [2, 0.5], [3, 0.25]]);
    const a = [step(1, [7, 2, 12], PLAIN, [same, cpA]), step(2, [7, 2, 12], row([[7, 3], [8, 2]], 0), [same, cpA])];
    const b = [step(1, [7, 2, 12], PLAIN, [same, cpA]), step(2, [7, 2, 13], row([[7, 3], [8, 2]], 0.25), [same, cpB])];
    // Step 1 equal, so the flip is at step 2, codebook 2: marginA = 0.03125, marginB = 0; pairDrift 0.03125.
    const flip = firstCodeFlip(a, b)!;
    expect(flip).toMatchObject({ step: 2, codebook: 2, codeA: 12, codeB: 13, gapA: 0.03125, gapB: 0, pairDrift: 0.03125, kind: 'near-tie' });
    // The talker mean moved by 0.25 before the flipped row: near-tie, but not numerically equivalent.
    expect(flip).toMatchObject({ driftBefore: 0.25, numericallyEquivalent: false });
    expect(flip.detail).toContain('already drifted by 0.25');
  });

  it('unrecorded code-predictor logits (a foreign trace without them) leave the flip unknown, saying why', () => {
    const a = [step(1, [7, 4])];
    const b = [step(1, [7, 5])];
    const flip = firstCodeFlip(a, b)!;
    expect(flip).toMatchObject({ codebook: 1, kind: 'unknown', gapA: null, gapB: null, pairDrift: null, numericallyEquivalent: false });
    expect(flip.detail).toBe('the code-predictor logits of this row were not recorded on either side');
  });

  it('identical rows that picked different codes (a sampler, not numbers) are not a near-tie: unknown, saying why', () => {
    const [a, b] = talkerFlip(SWAP_A, SWAP_A);
    const flip = firstCodeFlip(a, b)!;
    expect(flip).toMatchObject({ step: 2, codeA: 81, codeB: 65, pairDrift: 0, kind: 'unknown', numericallyEquivalent: false, driftBefore: 0 });
    expect(flip.detail).toContain('the same numbers gave different codes, so the sampler decided');
    expect(flip.detail).toContain('not numeric drift');
    // the same swap from rows that moved is still classified by its numbers
    expect(firstCodeFlip(...talkerFlip(SWAP_A, SWAP_B))!.kind).toBe('near-tie');
  });

  it('NaN logits (empty top-5) are unknown; no differing code gives no flip', () => {
    const nan = { mean: NaN, std: NaN, min: NaN, max: NaN, argmax: 0, top5: [] };
    expect(firstCodeFlip(...talkerFlip(SWAP_A, nan))).toMatchObject({ kind: 'unknown', gapB: null });
    expect(firstCodeFlip([step(1, [7, 1])], [step(1, [7, 1]), step(2, [8, 1])])).toBeNull();
  });
});

describe('near-tie flips in the localisation, the verdict words and the summary', () => {
  it('localise records the flip under its tolerance (nearTieGap) and the report round-trips it', () => {
    const [a, b] = talkerFlip(SWAP_A, SWAP_B);
    const d = localise(a, b);
    expect(d.flip).toMatchObject({ kind: 'near-tie', threshold: DEFAULT_NEAR_TIE_GAP });
    expect(Divergence.parse(JSON.parse(JSON.stringify(d)))).toEqual(d);
    expect(localise(a, b, { tolerances: { nearTieGap: 0.05 } }).flip).toMatchObject({ kind: 'real', threshold: 0.05 });
    const verdict = verdictOf(d);
    expect(verdict).toBe('diverged');
    expect(verdictWords(verdict, d)).toBe('diverged at a near-tie (numerically equivalent)');
    expect(verdictWords(verdict, localise(a, b, { tolerances: { nearTieGap: 0.05 } }))).toBe('diverged');
  });

  it('a report written before flips existed (no divergence.flip) still parses', () => {
    const d = localise([step(1, [7, 1])], [step(1, [7, 1])]);
    expect(d.flip).toBeUndefined();
    expect(Divergence.parse(d).flip).toBeUndefined();
  });

  it('flipLines: where, both gaps and the reason', () => {
    const [a, b] = talkerFlip(SWAP_A, SWAP_B);
    expect(flipLines(firstCodeFlip(a, b)!)).toEqual([
      'Codes first differ: step 2, codebook 0 (A 81, B 65): near-tie flip; top-1 − top-2 gap A 0.063, B 0.031',
      "  the two codes' logit difference moved by 0.0938 from A to B (≤ near-tie gap 0.1); every logit statistic before it equal",
    ]);
  });
});
