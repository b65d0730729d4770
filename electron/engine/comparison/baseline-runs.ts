import { selfCheck, type Baseline } from '../../common/forensics/baseline.js';
import { CancelledError } from '../../common/errors.js';
import { parseProfile } from '../../common/profile/parse-profile.js';
import type { Engine, SynthesisResult } from '../engine.js';
import type { CompareProfilesRequest, CompareProgress, ProfileComparison } from './compare-profiles.js';

/**
 * `parity compare --baseline`: renders A and B once more with the comparison's own request and
 * compares each second run with the first (selfCheck), so run-to-run nondeterminism is reported apart
 * from the A-vs-B difference.
 */
export async function runBaseline(
  engine: Engine,
  req: CompareProfilesRequest,
  comparison: ProfileComparison,
  opts: { signal?: AbortSignal; onProgress?: (p: CompareProgress) => void } = {},
): Promise<Baseline> {
  const again = async (side: 'A' | 'B', profileText: string, teacherCodes?: Int32Array): Promise<SynthesisResult> => {
    if (opts.signal?.aborted) throw new CancelledError();
    return engine.synthesize(
      { text: req.text, profile: parseProfile(profileText), seed: req.seed, sampling: req.sampling },
      { signal: opts.signal, onProgress: (p) => opts.onProgress?.({ side, ...p }), ...(teacherCodes ? { teacherCodes } : {}) },
    );
  };
  const a2 = await again('A', req.profileA);
  // Teacher-forced: B's second run is fed the same codes as its first (run 1 of A's), so only B's own noise can differ.
  const b2 = await again('B', req.profileB, req.teacherForce ? comparison.resultA.codes : undefined);
  const { report, resultA, resultB } = comparison;
  const rates = { sampleRate: resultA.sampleRate, frameRate: report.a.frameRate };
  const tolerances = report.rerun.tolerances;
  return {
    a: selfCheck(report.a.profile, resultA, a2, tolerances, rates),
    b: selfCheck(report.b.profile, resultB, b2, tolerances, rates),
  };
}
