import { describe, expect, it } from 'vitest';
import { gateSweep, SweepThresholds } from '../../../../electron/common/sweep/sweep-gate.js';
import type { SummaryCase, SweepSummary } from '../../../../electron/common/sweep/sweep-summary.js';

function summary(correlations: (number | null)[], missing = 0): SweepSummary {
  const cases: SummaryCase[] = correlations.map((correlation, index) => ({
    index,
    id: `p${index}`,
    seed: 0,
    verdict: correlation === null ? 'error' : correlation < 1 ? 'diverged' : 'identical',
    firstStep: correlation !== null && correlation < 1 ? 2 : null,
    stage: correlation !== null && correlation < 1 ? 'talker-logits' : null,
    codebook: null,
    reconverges: null,
    flip: null,
    correlation,
    nullDepthDb: null,
    loudnessDeltaLU: null,
    lsdDb: null,
    mcdDb: null,
  }));
  const count = (v: string) => cases.filter((c) => c.verdict === v).length;
  const q = { count: 0, nonFinite: 0, min: null, p05: null, p25: null, p50: null, p75: null, p95: null, max: null };
  return {
    schema: 'tts-parity-sweep-summary/1',
    mode: 'profiles',
    a: 'graph',
    b: 'eager',
    corpusSha256: 'a'.repeat(64),
    totalCases: cases.length + missing,
    counts: { identical: count('identical'), 'within-tolerance': 0, diverged: count('diverged'), error: count('error'), missing },
    flips: { 'near-tie': 0, real: 0, unknown: 0 },
    firstStep: { histogram: [], byStage: [], mode: null },
    distributions: { correlation: q, loudnessDeltaLU: q, mcdDb: q },
    worst: [],
    problems: { missingShards: [], missing: [], duplicates: [], conflicts: [], unpaired: [] },
    cases,
  };
}

const t = (o: object) => SweepThresholds.parse(o);

describe('gateSweep', () => {
  // 10 cases, 2 diverged (correlations 0.95 and 0.5): a diverged rate of exactly 0.2.
  const s = summary([1, 1, 1, 0.95, 1, 1, 0.5, 1, 1, 1]);

  it('passes at the diverged rate and fails just below it', () => {
    expect(gateSweep(s, t({ maxDivergedRate: 0.2 })).ok).toBe(true);
    const failed = gateSweep(s, t({ maxDivergedRate: 0.19 }));
    expect(failed.ok).toBe(false);
    expect(failed.checks.find((c) => c.name === 'diverged-rate')?.detail).toBe('diverged 2 of 10 (0.2000) > 0.19');
  });

  it('counts outliers below the correlation threshold (0.9 by default)', () => {
    expect(gateSweep(s, t({ maxOutliers: 1 })).outliers).toEqual(['p6@0']);
    expect(gateSweep(s, t({ maxOutliers: 1 })).ok).toBe(true);
    expect(gateSweep(s, t({ maxOutliers: 1, outlierCorrelation: 0.96 })).ok).toBe(false);
    expect(gateSweep(s, t({ maxOutliers: 0 })).ok).toBe(false);
  });

  it('fails on errors and missing cases unless allowed, since a gate over part of a corpus proves nothing', () => {
    const withError = summary([1, null, 1]);
    expect(gateSweep(withError, t({ maxDivergedRate: 1 })).ok).toBe(false);
    expect(gateSweep(withError, t({ maxDivergedRate: 1, maxErrors: 1 })).ok).toBe(true);
    const incomplete = summary([1, 1], 3);
    expect(gateSweep(incomplete, t({ maxDivergedRate: 1 })).checks.find((c) => c.name === 'missing')).toEqual({ name: 'missing', ok: false, detail: 'missing 3 of 5 cases > 0' });
    expect(gateSweep(incomplete, t({ maxDivergedRate: 1, maxMissing: 3 })).ok).toBe(true);
  });

  it('refuses unknown threshold names and out-of-range values', () => {
    expect(SweepThresholds.safeParse({ maxDivergedRatio: 0.1 }).success).toBe(false);
    expect(SweepThresholds.safeParse({ maxDivergedRate: 1.5 }).success).toBe(false);
  });
});
