import type { DivergenceStage } from '../../electron/common/forensics/divergence.js';
import { mergeShards } from '../../electron/common/sweep/merge-shards.js';
import { caseKey, SWEEP_SCHEMA, type SweepCase } from '../../electron/common/sweep/sweep-case.js';
import type { SweepSummary } from '../../electron/common/sweep/sweep-summary.js';

/** A seeded generator (mulberry32), so the same `seed` gives the same sweep. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const STAGES: DivergenceStage[] = ['talker-logits', 'sampled-code', 'code-predictor', 'vocoder'];

/**
 * A merged profile sweep of `n` synthetic cases (through the real merge, so the summary is what
 * `parity sweep merge` writes), shaped like a CUDA-graph port with a stale-feedback bug: about 55 %
 * identical, 15 % within tolerance, 28 % diverged (first steps clustered around `divergeAt`, a tail of
 * later ones), 2 % errors. `shift` moves cases between verdicts, for a before/after pair of sweeps.
 */
export function syntheticSweep(n: number, options: { seed?: number; divergeAt?: number; shift?: number } = {}): SweepSummary {
  const rnd = random(options.seed ?? 1);
  const divergeAt = options.divergeAt ?? 2;
  const shift = options.shift ?? 0;
  const cases: SweepCase[] = [];
  for (let index = 0; index < n; index++) {
    const id = `p${String(Math.floor(index / 2)).padStart(5, '0')}`;
    const seed = index % 2;
    const u = (rnd() + shift) % 1;
    const base = { index, id, seed, text: `Prompt number ${Math.floor(index / 2)} of the corpus.`, timings: { aMs: 400, bMs: 410, wallMs: 820 } };
    const none = { firstStep: null, stage: null, codebook: null, reconverges: null, flip: null } as const;
    if (u < 0.55) {
      cases.push({ ...base, ...none, verdict: 'identical', correlation: 1, nullDepthDb: -Infinity, loudnessDeltaLU: 0, lsdDb: 0, mcdDb: 0 });
    } else if (u < 0.7) {
      const d = rnd();
      cases.push({ ...base, ...none, verdict: 'within-tolerance', correlation: 1 - 1e-6 * (1 + 50 * d), nullDepthDb: -80 + 20 * d, loudnessDeltaLU: (rnd() - 0.5) * 0.02, lsdDb: 0.05 * d, mcdDb: 0.02 * d });
    } else if (u < 0.98) {
      const late = rnd() < 0.25;
      const firstStep = late ? 3 + Math.floor(rnd() * 60) : divergeAt + Math.floor(rnd() * 3);
      const stage = STAGES[Math.floor(rnd() * rnd() * STAGES.length)];
      cases.push({
        ...base,
        verdict: 'diverged',
        firstStep,
        stage,
        codebook: stage === 'code-predictor' ? 1 + Math.floor(rnd() * 7) : 0,
        reconverges: rnd() < 0.1,
        flip: rnd() < 0.3 ? 'near-tie' : 'real',
        correlation: Math.max(-0.3, 0.9 - rnd() * 1.1),
        nullDepthDb: -2 + 4 * rnd(),
        loudnessDeltaLU: (rnd() - 0.5) * 6,
        lsdDb: 4 + 10 * rnd(),
        mcdDb: 3 + 8 * rnd(),
      });
    } else {
      cases.push({ ...base, ...none, verdict: 'error', correlation: null, nullDepthDb: null, loudnessDeltaLU: null, lsdDb: null, mcdDb: null, error: 'synthesis failed: out of memory' });
    }
  }
  const header = {
    schema: SWEEP_SCHEMA as typeof SWEEP_SCHEMA,
    mode: 'profiles' as const,
    a: 'graph',
    b: 'graph,fault=stale-feedback@2',
    bundle: 'demo',
    corpusSha256: '0'.repeat(64),
    totalCases: n,
    shard: { index: 1, count: 1 },
    planned: cases.map(caseKey),
  };
  return mergeShards([{ file: 'shard-1-of-1.jsonl', header, cases, completeBytes: 0, torn: false }], { worst: 5 });
}
