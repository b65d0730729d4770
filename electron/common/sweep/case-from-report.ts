import type { Divergence } from '../forensics/divergence.js';
import type { Metrics } from '../report/metrics.js';
import type { Verdict } from '../report/report.js';
import type { SweepCase } from './sweep-case.js';

/** What a case line keeps of a comparison report (profile or trace comparison). */
export interface CaseReport {
  verdict: Verdict;
  divergence: Pick<Divergence, 'firstStep' | 'stage' | 'codebook' | 'reconverges' | 'flip'>;
  metrics?: Pick<Metrics, 'correlation' | 'nullDepthDb' | 'loudnessDeltaLU' | 'lsdDb' | 'mcdDb'>;
  /** Engine comparisons: each side's synthesis time. */
  a?: { timings: Record<string, unknown> };
  b?: { timings: Record<string, unknown> };
}

export interface CaseIdentity {
  index: number;
  id: string;
  seed: number | null;
  text?: string;
}

/** The identity fields alone (a task object may carry more, e.g. its key). */
function identity(who: CaseIdentity): CaseIdentity {
  return { index: who.index, id: who.id, seed: who.seed, ...(who.text === undefined ? {} : { text: who.text }) };
}

function totalMs(side: CaseReport['a']): number | null {
  const t = side?.timings.totalMs;
  return typeof t === 'number' ? t : null;
}

/** The sweep line of one finished comparison. */
export function caseFromReport(who: CaseIdentity, report: CaseReport, wallMs: number): SweepCase {
  const d = report.divergence;
  const m = report.metrics;
  return {
    ...identity(who),
    verdict: report.verdict,
    firstStep: d.firstStep,
    stage: d.stage,
    codebook: d.firstStep === null ? null : (d.codebook ?? null),
    reconverges: d.firstStep === null ? null : d.reconverges,
    flip: d.flip?.kind ?? null,
    correlation: m?.correlation ?? null,
    nullDepthDb: m?.nullDepthDb ?? null,
    loudnessDeltaLU: m?.loudnessDeltaLU ?? null,
    lsdDb: m?.lsdDb ?? null,
    mcdDb: m?.mcdDb ?? null,
    timings: { aMs: totalMs(report.a), bMs: totalMs(report.b), wallMs },
  };
}

/** The sweep line of a case whose comparison failed: recorded, so one bad case does not stop a shard. */
export function caseFromError(who: CaseIdentity, message: string, wallMs: number): SweepCase {
  return {
    ...identity(who),
    verdict: 'error',
    firstStep: null,
    stage: null,
    codebook: null,
    reconverges: null,
    flip: null,
    correlation: null,
    nullDepthDb: null,
    loudnessDeltaLU: null,
    lsdDb: null,
    mcdDb: null,
    timings: { aMs: null, bMs: null, wallMs },
    error: message,
  };
}
