import type { ComparisonResult } from '../../../../electron/common/api/comparison.js';
import type { Divergence } from '../../../../electron/common/forensics/divergence.js';
import type { ComparisonSide } from '../../../../electron/common/report/comparison-report.js';
import type { Metrics } from '../../../../electron/common/report/metrics.js';
import type { LoudnessCurves } from '../../../../electron/common/report/report.js';
import { fmt as plainFmt } from '../../lib/format.js';
import { audioNotComparedReason } from '../../../../electron/common/report/audio-check.js';
import { degenerateFormats } from '../../../../electron/common/report/format/degenerate-values.js';
import { loudnessDeltaText, minusInfinityReason } from '../../../../electron/common/report/format/loudness-words.js';
import { AFTER_UNRELIABLE_LAG, LAG_MIN_PEAK, reportLagReliable, unreliableLag } from '../../../../electron/common/report/lag-reliability.js';
import { frameDeltas } from '../../../../electron/common/draw/frame-delta.js';
import { stageRows, stepDeltas, vocoderAbsentWords, type StageRow, type StepDelta } from '../../../../electron/common/draw/step-delta.js';
import { codesByFrame } from '../../../../electron/common/trace/delay-pattern.js';
import { memoByRef } from '../memo.js';
import { rejudge } from '../tolerance/judgement.js';
import type { StudioState } from '../studio-store.js';

/** The optional parts a report may carry (profiles: sides and divergence; traces: divergence; WAVs: neither). */
interface ReportParts {
  verdict?: string;
  metrics?: Metrics;
  curves?: LoudnessCurves;
  a?: ComparisonSide;
  b?: ComparisonSide;
  divergence?: Divergence;
  traces?: { a?: { header?: { frameRate: number } } };
  kind?: string;
  /** What the comparison ran despite (two traces' headers disagreeing on frameRate or sampleRate). */
  warnings?: string[];
  /** Each side's audio as read; `warnings` are what the WAV reader tolerated (e.g. placeholder sizes). */
  sources?: { a: SourceNotes; b: SourceNotes };
}
interface SourceNotes {
  path?: string;
  warnings?: string[];
}
const parts = (c: ComparisonResult | undefined): ReportParts => (c?.report ?? {}) as ReportParts;
const judged = (s: Pick<StudioState, 'comparison' | 'tolerances'>) => (s.comparison && s.tolerances ? rejudge(s.comparison, s.tolerances) : undefined);
const num = (v: number | string | undefined): number => (typeof v === 'string' ? Number(v) : (v ?? NaN));

/**
 * Each side's WAV reading notes, the CLI's "note: A: …" lines, labelled with the side and the file's
 * name (a synthesized side has no file): "A (take.wav): data size is the streaming placeholder …".
 */
const sourceNotes = memoByRef((sources: { a: SourceNotes; b: SourceNotes }): string[] =>
  (['a', 'b'] as const).flatMap((side) => {
    const source = sources[side] as SourceNotes | undefined;
    const name = source?.path?.split(/[\\/]/).pop();
    const label = `${side.toUpperCase()}${name ? ` (${name})` : ''}`;
    return (Array.isArray(source?.warnings) ? source.warnings : []).map((w) => `${label}: ${w}`);
  }),
);

export interface MetricRow {
  key: string;
  label: string;
  value: string;
  /** One line on what it means, shown on hover. */
  explain: string;
}

const metricRows = memoByRef((m: Metrics): MetricRow[] => {
  const { compared: fmt, perTake: take, unmeasured } = degenerateFormats(m.audio, plainFmt, num);
  const reason = audioNotComparedReason(m.audio);
  return [
  ...(reason ? [{ key: 'audio', label: 'Audio', value: reason, explain: 'A take that is digital silence, a constant, non-finite or below one 16-bit step has nothing to compare: no verdict over it is a match.' }] : []),
  { key: 'correlation', label: 'Correlation (lag 0)', value: fmt(m.correlation, 6), explain: 'Pearson correlation of A and B at lag 0: 1 = same shape, 0 = unrelated.' },
  {
    key: 'lag',
    label: 'Lag',
    value: Number.isNaN(num(m.xcorrPeak)) ? fmt(m.xcorrPeak, 2) : reportLagReliable(m) ? `${fmt(m.lagSamples, 0, ' samples')} (${fmt(m.lagMs, 2, ' ms')}), peak ${fmt(m.xcorrPeak, 2)}` : unreliableLag(m.xcorrPeak),
    explain: `Shift of B against A at the cross-correlation peak; positive = B is late. Reported only when the normalised peak is at least ${LAG_MIN_PEAK}.`,
  },
  { key: 'nullDepth', label: 'Null depth', value: fmt(m.nullDepthDb, 1, ' dB'), explain: 'Level of A − B relative to A: −∞ = identical, around 0 dB = as loud as the signal itself.' },
  {
    key: 'matchedNull',
    label: 'Matched null',
    // Aligned by a lag that means nothing, the number says nothing about a difference either.
    value: `${fmt(m.matchedNullDepthDb, 1, ' dB')}${reportLagReliable(m) || unmeasured(m.matchedNullDepthDb) ? '' : AFTER_UNRELIABLE_LAG}`,
    explain: 'Null depth after removing the best gain and sub-sample lag: what is left is a real difference.',
  },
  {
    key: 'gain',
    label: 'Gain B→A',
    value: `${fmt(m.gainDb, 2, ' dB')}${reportLagReliable(m) || unmeasured(m.gainDb) ? '' : AFTER_UNRELIABLE_LAG}`,
    explain: 'Least-squares gain that maps B onto A after the sub-sample lag; positive = B is quieter. Meaningful only when B is a shifted copy of A.',
  },
  { key: 'loudnessA', label: 'Loudness A', value: take(m.loudnessA, 2, ' LUFS') + minusInfinityReason(m.loudnessA, m.lengthA, m.sampleRate), explain: 'Integrated loudness of A, ITU-R BS.1770-4, over all its channels (a stereo or 5.1 file is not downmixed first).' },
  { key: 'loudnessB', label: 'Loudness B', value: take(m.loudnessB, 2, ' LUFS') + minusInfinityReason(m.loudnessB, m.lengthB, m.sampleRate), explain: 'Integrated loudness of B, ITU-R BS.1770-4, over all its channels (a stereo or 5.1 file is not downmixed first).' },
  { key: 'deltaLU', label: 'ΔLoudness', value: Number.isFinite(m.loudnessDeltaLU) || Number.isNaN(num(m.loudnessA)) || Number.isNaN(num(m.loudnessB)) ? fmt(m.loudnessDeltaLU, 3, ' LU') : loudnessDeltaText(m, 3), explain: 'B − A in loudness units; about 1 LU is the smallest change most listeners notice.' },
  { key: 'peaks', label: 'Peak A / B', value: `${take(m.peakA, 2)} / ${take(m.peakB, 2)} dBFS`, explain: 'Largest sample magnitude of each take; at or above 0 dBFS it clips.' },
  { key: 'maxAbsDiff', label: 'Max |A−B|', value: fmt(m.maxAbsDiff, 6), explain: 'Largest sample difference at lag 0 (full scale = 1).' },
  { key: 'lsd', label: 'LSD', value: fmt(m.lsdDb, 3, ' dB'), explain: 'Log-spectral distance: RMS difference of the two log spectra, averaged over frames; 0 = same spectra.' },
  { key: 'mcd', label: 'MCD', value: fmt(m.mcdDb, 3, ' dB'), explain: 'Mel-cepstral distortion: timbre difference; under about 1 dB is usually inaudible.' },
  { key: 'length', label: 'Length A / B', value: `${m.lengthA} / ${m.lengthB} samples`, explain: 'Samples in each take; a difference means one rendering ran longer.' },
];
});

/** Frames per second of a comparison's step trace (frame N comes from step N); 0 when unknown. */
const frameRateOf = (c: ComparisonResult | undefined): number => {
  const p = parts(c);
  return p.a?.frameRate ?? p.traces?.a?.header?.frameRate ?? 0;
};

/**
 * Every stage's |Δ| per step: the report's rows, and the vocoder's from both takes when the comparison has them.
 * The same array for the same report and takes (a selector must return what it returned before).
 */
const deltasOf = (() => {
  const cache = new WeakMap<object, { a?: Float32Array; b?: Float32Array; deltas: StepDelta[] }>();
  return (c: ComparisonResult): StepDelta[] => {
    const a = c.a?.samples;
    const b = c.b?.samples;
    const hit = cache.get(c.report);
    if (hit && hit.a === a && hit.b === b) return hit.deltas;
    const d = parts(c).divergence!;
    const rate = c.a?.sampleRate;
    const frames = a && b && rate && rate === c.b?.sampleRate ? frameDeltas(a, b, rate, frameRateOf(c), d.steps.length) : undefined;
    const deltas = stepDeltas(d, frames);
    cache.set(c.report, { a, b, deltas });
    return deltas;
  };
})();

/** stageRows, the same array for the same deltas and tolerances (a selector must not build a new one each call). */
const rowsOf = (() => {
  const cache = new WeakMap<readonly StepDelta[], { tolerances: unknown; vocoderAbsent?: string; rows: StageRow[] }>();
  return (deltas: readonly StepDelta[], tolerances: { logitAbs: number; audioAbs: number } | undefined, vocoderAbsent?: string): StageRow[] => {
    const hit = cache.get(deltas);
    if (hit && hit.tolerances === tolerances && hit.vocoderAbsent === vocoderAbsent) return hit.rows;
    const rows = stageRows(deltas, tolerances, vocoderAbsent);
    cache.set(deltas, { tolerances, vocoderAbsent, rows });
    return rows;
  };
})();

export interface CodesMatrix {
  frames: number;
  q: number;
  /** frames × q row-major; -1 where a side has no frame. */
  a: Int32Array;
  b: Int32Array;
  differing: number;
}

/** Frames × codebooks; under a delay pattern (`codebookDelays`) the steps' codes are regrouped by frame. */
const codesMatrix = memoByRef((d: Divergence): CodesMatrix => {
  const q = Math.max(1, ...d.steps.map((s) => Math.max(s.codesA?.length ?? 0, s.codesB?.length ?? 0)));
  if (d.codebookDelays) return delayedCodesMatrix(d, q, d.codebookDelays);
  const frames = d.steps.length;
  const a = new Int32Array(frames * q).fill(-1);
  const b = new Int32Array(frames * q).fill(-1);
  let differing = 0;
  d.steps.forEach((s, f) => {
    for (let k = 0; k < q; k++) {
      a[f * q + k] = s.codesA?.[k] ?? -1;
      b[f * q + k] = s.codesB?.[k] ?? -1;
      if (a[f * q + k] !== b[f * q + k]) differing++;
    }
  });
  return { frames, q, a, b, differing };
});

function delayedCodesMatrix(d: Divergence, q: number, delays: readonly number[]): CodesMatrix {
  const byA = codesByFrame(d.steps.map((s) => s.codesA), q, delays);
  const byB = codesByFrame(d.steps.map((s) => s.codesB), q, delays);
  const frames = byA.length;
  const a = Int32Array.from(byA.flat(), (c) => c ?? -1);
  const b = Int32Array.from(byB.flat(), (c) => c ?? -1);
  let differing = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing++;
  return { frames, q, a, b, differing };
}

export interface NumericsRow {
  side: 'A' | 'B';
  profile: string;
  executionProvider: string;
  fallback?: string;
  nan: { talker: number; codePredictor: number; vocoder: number };
  inf: { talker: number; codePredictor: number; vocoder: number };
  /** Steps with any NaN/Inf, with the stage, e.g. "step 12: talker 3 NaN". */
  badSteps: string[];
}

const numericsRow = (side: 'A' | 'B') =>
  memoByRef((s: ComparisonSide): NumericsRow => ({
    side,
    profile: s.profile,
    executionProvider: s.executionProvider,
    fallback: s.fallback,
    nan: s.numerics.nan,
    inf: s.numerics.inf,
    badSteps: s.steps.flatMap((r) => {
      const out: string[] = [];
      for (const stage of ['talker', 'codePredictor', 'vocoder'] as const) {
        const n = r.nan?.[stage] ?? 0;
        const i = r.inf?.[stage] ?? 0;
        if (n || i) out.push(`step ${r.step}: ${stage} ${n} NaN, ${i} Inf`);
      }
      return out;
    }),
  }));
const numericsA = numericsRow('A');
const numericsB = numericsRow('B');

export const comparisonSelectors = {
  comparison: (s: StudioState) => s.comparison,
  hasComparison: (s: StudioState) => s.comparison !== undefined,
  report: (s: StudioState) => s.comparison?.report,
  /** A WAV import whose audio is on screen while the host measures it (comparison-slice.ts). */
  measuring: (s: StudioState) => s.measuring,
  /** What the measuring is doing, for its status line. */
  measuringLabel: (s: StudioState): string => {
    const m = s.measuring;
    if (!m) return '';
    if (m.cancelling) return 'Cancelling…';
    if (!m.jobId) return `Sending ${m.names[0]} and ${m.names[1]} to the host…`;
    return `Measuring on the host${m.progress?.message ? `: ${m.progress.message}` : '…'} The metrics, verdict and aligned difference follow.`;
  },
  historyId: (s: StudioState) => s.comparison?.historyId,
  /** The verdict under the studio's tolerances when set (judged again, tolerance/judgement.ts), else the report's. */
  verdict: (s: StudioState) => judged(s)?.verdict ?? parts(s.comparison).verdict,
  kind: (s: StudioState) => parts(s.comparison).kind,
  /** The report's own warnings (report.warnings); undefined when it has none. */
  warnings: (s: StudioState): string[] | undefined => {
    const w = parts(s.comparison).warnings;
    return Array.isArray(w) && w.length > 0 ? w : undefined;
  },
  /** What the WAV reader tolerated in A's and B's files (report.sources.*.warnings); undefined when nothing. */
  sourceNotes: (s: StudioState): string[] | undefined => {
    const sources = parts(s.comparison).sources;
    const notes = sources ? sourceNotes(sources) : [];
    return notes.length > 0 ? notes : undefined;
  },
  metricRows: (s: StudioState): MetricRow[] | undefined => {
    const m = parts(s.comparison).metrics;
    return m ? metricRows(m) : undefined;
  },
  /** Each take's condition (digital silence, constant, non-finite, near-silent); undefined in older reports. */
  audioCheck: (s: StudioState) => parts(s.comparison).metrics?.audio,
  metrics: (s: StudioState) => parts(s.comparison).metrics,
  deltaLU: (s: StudioState) => num(parts(s.comparison).metrics?.loudnessDeltaLU),
  curves: (s: Pick<StudioState, 'comparison'>) => parts(s.comparison).curves,
  /** The divergence under the studio's tolerances when set, else the report's. */
  divergence: (s: Pick<StudioState, 'comparison' | 'tolerances'>) => judged(s)?.divergence ?? parts(s.comparison).divergence,
  /** The report's own divergence, whatever the studio's tolerances. */
  reportDivergence: (s: StudioState) => parts(s.comparison).divergence,
  firstStep: (s: StudioState) => comparisonSelectors.divergence(s)?.firstStep,
  firstNonFinite: (s: StudioState) => comparisonSelectors.divergence(s)?.firstNonFinite,
  /** Frames per second of the step trace (frame N comes from step N). */
  frameRate: (s: Pick<StudioState, 'comparison'>) => frameRateOf(s.comparison),
  /** Where the first divergence is on the timeline, seconds; undefined when none or unknown. */
  divergenceTime: (s: StudioState): number | undefined => {
    const d = comparisonSelectors.divergence(s);
    if (!d || d.firstStep === null) return undefined;
    const t = num(d.timeSec);
    if (Number.isFinite(t)) return t;
    const rate = comparisonSelectors.frameRate(s);
    return rate > 0 ? stepStartSec(d.firstStep, rate) : undefined;
  },
  /** Per-step |Δ| of every stage (talker, code predictor, vocoder), non-finite sides marked (step-delta.ts). */
  stepDeltas: (s: Pick<StudioState, 'comparison'>) => {
    const d = parts(s.comparison).divergence;
    return s.comparison && d && d.steps.length > 0 ? deltasOf(s.comparison) : undefined;
  },
  /** The rows of the per-step views, under the studio's tolerances when set (step-delta.ts stageRows). */
  stageRows: (s: Pick<StudioState, 'comparison' | 'tolerances'>) => {
    const deltas = comparisonSelectors.stepDeltas(s);
    const vocoderAbsent = vocoderAbsentWords(s.comparison?.a?.samples !== undefined, s.comparison?.b?.samples !== undefined);
    return deltas ? rowsOf(deltas, comparisonSelectors.divergence(s)?.tolerances, vocoderAbsent) : undefined;
  },
  codes: (s: Pick<StudioState, 'comparison'>) => {
    const d = parts(s.comparison).divergence;
    return d && d.steps.length > 0 ? codesMatrix(d) : undefined;
  },
  hasCodes: (s: StudioState) => comparisonSelectors.codes(s) !== undefined,
  numericsA: (s: StudioState) => {
    const a = parts(s.comparison).a;
    return a ? numericsA(a) : undefined;
  },
  numericsB: (s: StudioState) => {
    const b = parts(s.comparison).b;
    return b ? numericsB(b) : undefined;
  },
};

/** Start of the frame that step N produced (step 1 yields frame 1 at t = 0). */
export function stepStartSec(step: number, frameRate: number): number {
  return (step - 1) / frameRate;
}
