import { divergenceLines } from '../../forensics/divergence-summary.js';
import type { Divergence, DivergenceStage } from '../../forensics/divergence.js';
import { seamMarks, type SeamMark } from '../../draw/seam-marks.js';
import { frameDeltas } from '../../draw/frame-delta.js';
import { stepDeltas, verdictCodebook, vocoderAbsentWords, type StepDelta, type VerdictCodebook } from '../../draw/step-delta.js';
import { endpointPageTable, type EndpointPageTable } from './endpoint-page-table.js';
import type { SeamReport } from '../../forensics/seams.js';
import { drillLines } from '../drill-lines.js';
import type { DrillReport } from '../drill.js';
import { metricRows, type Row } from '../format/metric-rows.js';
import { audioNotComparedReason, type AudioCheck } from '../audio-check.js';
import type { EndpointComparison } from '../endpoint-exchange.js';
import type { Metrics } from '../metrics.js';
import type { AudioSource } from '../report.js';
import { moduleDrillLines } from '../module-drill-lines.js';
import type { ModuleDrillReport } from '../module-drill.js';

/** The audio of a report.html: embedded 16-bit WAVs, or (past the size limit) envelopes and the WAVs beside it. */
export type PageAudio = EmbeddedAudio | BesideAudio;

interface AudioCommon {
  sampleRate: number;
  /** Samples of A, B and A − B. */
  lengths: { a: number; b: number; diff: number };
  /** Largest |A − B|: the difference is embedded scaled to full scale and played at this volume. */
  diffMax: number;
  /** Loudness B − A (LU) from the report, for loudness matching; null when not measured or not finite. */
  loudnessDeltaLU: number | null;
}

export interface EmbeddedAudio extends AudioCommon {
  embedded: true;
  /** 16-bit PCM mono WAV files, base64; diff holds (A − B) × diffGainFor(diffMax), played at volume 1 / that gain. */
  wav: { a: string; b: string; diff: string };
}

export interface BesideAudio extends AudioCommon {
  embedded: false;
  /** Why the audio is not inside the page, in words the page shows. */
  note: string;
  /** The fixture's own WAVs, beside report.html. */
  files: { a: string; b: string; diff: string };
  /**
   * Per track `computePeaks(x, BESIDE_BUCKETS)` (beside-buckets.ts) (draw/peaks.ts): max/min pairs, or the samples themselves when
   * a track has no more than that many; diff scaled by diffGainFor(diffMax).
   */
  peaks: { a: number[]; b: number[]; diff: number[] };
}

/** Steps a report.html charts (about 27 minutes at 12.5 frames/s); docs/report-format.md. */
export const PAGE_STEP_LIMIT = 20_000;

/** Everything report.html shows, computed where the fixture is written (one JSON object in the page). */
export interface ReportPageData {
  title: string;
  verdict: string | null;
  /** The verdict and where it diverges, in the words of report.md. */
  words: string[];
  warnings: string[];
  metrics: Row[];
  tolerances: Row[];
  drill: string[];
  /** The drill-down itself (absent without --drill), drawn as the studio draws it: a graph of the first divergent node's neighbourhood. */
  drillReport: DrillReport | null;
  markdown: string;
  /** Per-step |Δ| as the studio's step lane has it (stepDeltas), without the readout's per-side summaries. */
  steps: StepDelta[];
  /** Talker logit mean and max per step, A and B (null where a side has no step or a NaN), for the studio's step chart. */
  logits: { step: number; meanA: number | null; maxA: number | null; meanB: number | null; maxB: number | null }[];
  /** Codes per step, A and B (null where that side has no step); empty without a step trace. */
  codes: { a: (number[] | null)[]; b: (number[] | null)[] };
  firstStep: number | null;
  stage: DivergenceStage | null;
  logitTolerance: number;
  /** The audio tolerance (divergence.tolerances.audioAbs); 0 without a divergence. */
  audioTolerance: number;
  /** Why the steps have no vocoder |Δ| (vocoderAbsentWords), drawn in its row; null when they have it. */
  vocoderAbsent?: string | null;
  /** The verdict's code-predictor codebook at the first divergence (the charts plot the worst); null for none. */
  verdictCodebook?: VerdictCodebook | null;
  frameRate: number | null;
  /** Where the first divergence is on the timeline. */
  marker: { sec: number; label: string } | null;
  /** Seams at streaming-vocoder chunk boundaries (report.json `seams`, or a trace pair's `divergence.vocoderChunks`); empty without. */
  seams: SeamMark[];
  /** The two servers of an endpoint comparison (report.json `endpoints`); null for any other pair. */
  endpoints: EndpointPageTable | null;
  audio: PageAudio | null;
}

/** The fields of any report kind (profiles, traces, WAV pair) that the page reads. */
export interface ReportForPage {
  verdict?: string;
  metrics?: Metrics;
  divergence?: Divergence;
  drill?: DrillReport;
  moduleDrill?: ModuleDrillReport;
  warnings?: string[];
  sources?: { a: AudioSource; b: AudioSource };
  seams?: SeamReport;
  endpoints?: EndpointComparison;
}

/** A WAV pair's verdict-like line when a take is degenerate (it has no verdict otherwise). */
function audioLines(audio: AudioCheck | undefined): string[] {
  const reason = audioNotComparedReason(audio);
  return reason ? [reason] : [];
}

/** A WAV pair's words: which files, as what (its report has no divergence to tell). */
function sourceLines(sources: { a: AudioSource; b: AudioSource }): string[] {
  const line = (label: string, s: AudioSource) => `${label}: ${s.path ?? '(synthesis)'}, ${s.sampleRate} Hz, ${s.channels} channel${s.channels === 1 ? '' : 's'}${s.format ? `, ${s.format}` : ''}`;
  return [line('A', sources.a), line('B', sources.b)];
}

const finite = (v: number | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The first heading of report.md, without its #s: the page's title is the report's. */
function titleOf(markdown: string): string {
  const line = markdown.split('\n').find((l) => l.startsWith('#'));
  return line ? line.replace(/^#+\s*/, '') : 'Parity report';
}

function toleranceRows(d: Divergence): Row[] {
  const t = d.tolerances;
  const rows: Row[] = [
    ['Talker logit statistics', `|Δ| ≤ ${t.logitAbs}${t.logitRel ? ` + ${t.logitRel}·|x|` : ''}`],
    ['Codes', t.codes],
    ['Audio samples', `|A−B| ≤ ${t.audioAbs}`],
  ];
  if (t.nearTieGap !== undefined) rows.push(['Near-tie gap (top-1 − top-2)', `≤ ${t.nearTieGap}`]);
  return rows;
}

/** The code predictor's worst codebook for the page, without every codebook's |Δ| (the page charts the worst) but at the verdict's step. */
function pageCodePredictor(cp: StepDelta['codePredictor'], keepAll: boolean): Pick<StepDelta, 'codePredictor'> {
  if (!cp) return {};
  if (keepAll) return { codePredictor: cp };
  const { perCodebook: _all, ...worst } = cp;
  return { codePredictor: worst };
}

/** Where the first divergence stands on the timeline: the reported time, else the start of its frame. */
function markerOf(d: Divergence | undefined, frameRate: number | null, sampleRate: number | null): ReportPageData['marker'] {
  if (!d) return null;
  if (d.firstStep !== null) {
    const sec = typeof d.timeSec === 'number' && Number.isFinite(d.timeSec) ? d.timeSec : frameRate ? (d.firstStep - 1) / frameRate : null;
    return sec === null ? null : { sec, label: `first divergence: step ${d.firstStep}` };
  }
  if (d.firstDifferingSample !== undefined && sampleRate) return { sec: d.firstDifferingSample / sampleRate, label: 'first differing sample' };
  return null;
}

/**
 * The page's data but its audio: title and words as report.md has them, metric and tolerance rows,
 * drill-down lines, per-step |Δ| (the report's maxStatDiff) and codes. `frameRate` maps steps to time.
 */
/**
 * `audio`: both takes as compared, for the vocoder row of the per-step figure (frame-delta.ts); without it the
 * row says there is no audio. `frameRate` places steps on the timeline.
 */
export function reportPageData(report: ReportForPage, markdown: string, frameRate: number | null, audio?: { a: Float32Array; b: Float32Array; sampleRate: number }): Omit<ReportPageData, 'audio'> {
  const whole = report.divergence;
  const verdict = report.verdict ?? null;
  // Past the page's limit its per-step charts hold the first steps only; report.json keeps every step.
  const d = whole && whole.steps.length > PAGE_STEP_LIMIT ? { ...whole, steps: whole.steps.slice(0, PAGE_STEP_LIMIT) } : whole;
  const cut = whole && d !== whole ? [`The per-step charts show steps 1–${PAGE_STEP_LIMIT.toLocaleString('en-US')} of ${whole.steps.length.toLocaleString('en-US')} (the page's limit); report.json has every step.`] : [];
  const steps = d?.steps ?? [];
  return {
    title: titleOf(markdown),
    verdict,
    words: whole && report.verdict ? divergenceLines(report.verdict as Parameters<typeof divergenceLines>[0], whole, undefined, report.metrics?.audio).map((l) => l.trim()) : report.sources ? [...audioLines(report.metrics?.audio), ...sourceLines(report.sources)] : [],
    warnings: [...(report.warnings ?? []), ...cut],
    metrics: report.metrics ? metricRows(report.metrics) : [],
    tolerances: d ? toleranceRows(d) : [],
    drill: [...(report.drill ? drillLines(report.drill) : []), ...(report.moduleDrill ? moduleDrillLines(report.moduleDrill) : [])].map((l) => l.trim()),
    drillReport: report.drill ?? null,
    markdown,
    steps: d
      ? stepDeltas(d, audio && frameRate ? frameDeltas(audio.a, audio.b, audio.sampleRate, frameRate, d.steps.length) : undefined).map(({ step, delta, nonFinite, missing, codePredictor, vocoder }) => ({
          step,
          delta,
          nonFinite,
          missing,
          ...pageCodePredictor(codePredictor, step === verdictCodebook(d)?.step),
          ...(vocoder ? { vocoder } : {}),
        }))
      : [],
    logits: steps.map((s) => ({ step: s.step, meanA: finite(s.a?.mean), maxA: finite(s.a?.max), meanB: finite(s.b?.mean), maxB: finite(s.b?.max) })),
    codes: { a: steps.map((s) => s.codesA), b: steps.map((s) => s.codesB) },
    firstStep: d?.firstStep ?? null,
    stage: d?.stage ?? null,
    logitTolerance: d?.tolerances.logitAbs ?? 0,
    audioTolerance: d?.tolerances.audioAbs ?? 0,
    vocoderAbsent: (d && (audio && frameRate ? null : vocoderAbsentWords(false, false))) ?? null,
    verdictCodebook: verdictCodebook(d) ?? null,
    frameRate,
    marker: markerOf(d, frameRate, report.metrics?.sampleRate ?? null),
    seams: seamMarks(report),
    // A WAV pair's verdict is the audio rule's: said so in the last line, as report.md says it.
    endpoints: report.endpoints ? endpointPageTable(report.endpoints, whole ? undefined : verdict ?? undefined) : null,
  };
}
