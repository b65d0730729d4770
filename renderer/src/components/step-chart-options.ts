import type uPlot from 'uplot';
import { integerIncrs } from '../../../electron/common/draw/axis-ticks.js';
import { codePredictorText, deltaText, STAGE_LABELS, stageDelta, type DeltaRange, type Stage, type StageRow, type StepDelta, type VerdictCodebook } from '../../../electron/common/draw/step-delta.js';
/** The theme colours the chart uses (theme.ts `colors()`), named here so the module needs no DOM. */
interface Colors {
  d: string;
  seam: string;
  fg: string;
  grid: string;
}

/** The scale a stage's |Δ| is on: logit statistics on the left axis, audio samples on the right. */
export const scaleOf = (stage: Stage): string => (stage === 'vocoder' ? 'audio' : 'y');

export function stageColor(stage: Stage, c: Colors): string {
  return stage === 'talker' ? c.d : stage === 'code-predictor' ? c.seam : c.fg;
}

/**
 * The chart's data: steps, then a series per row. On a log axis |Δ| = 0 has no place, so an equal step is
 * drawn on the row's floor (`range.min`, labelled "0" on its axis); a step not measured is a gap.
 */
export function stepChartData(deltas: readonly StepDelta[], rows: readonly StageRow[]): uPlot.AlignedData {
  return [
    deltas.map((d) => d.step),
    ...rows.map((row) =>
      deltas.map((d) => {
        const v = stageDelta(d, row.stage)?.delta;
        return v === null || v === undefined ? null : v > 0 ? v : row.range.min;
      }),
    ),
  ] as uPlot.AlignedData;
}

/**
 * The x window in steps: step N's point at N, the first and last steps half a step in from the ends, so the
 * axis ends at the last step (no tick past it) and its point is not cut.
 */
export function stepWindow(deltas: readonly StepDelta[]): { min: number; max: number } {
  const first = deltas[0]?.step ?? 1;
  const last = deltas[deltas.length - 1]?.step ?? first;
  return { min: first - 0.5, max: last + 0.5 };
}

/** Decade tick labels of a log |Δ| axis, its floor said as "0" (where equal steps are drawn). */
function logValues(range: DeltaRange) {
  return (_u: uPlot, splits: (number | null)[]) =>
    splits.map((v) => (v === null ? '' : Math.abs(v / range.min - 1) < 1e-9 ? '0' : v >= 0.01 && v < 1000 ? String(+v.toPrecision(3)) : v.toExponential(0)));
}

/** Pixels a tick label of the log axes needs. */
const TICK_PX = 22;

/**
 * Log-decade splits from the floor up, every decade or every k-th where the plot is short, the floor always
 * among them (uPlot's own log splits and label filter would drop the floor's "0").
 */
function decadeSplits(range: DeltaRange, pxRatio: number) {
  return (u: uPlot) => {
    const low = Math.round(Math.log10(range.min));
    const decades = Math.round(Math.log10(range.max)) - low;
    const every = Math.max(1, Math.ceil((decades * TICK_PX) / Math.max(1, u.bbox.height / pxRatio)));
    const out: number[] = [];
    for (let e = 0; e <= decades; e += every) out.push(10 ** (low + e));
    return out;
  };
}
const allSplits = (_u: uPlot, splits: number[]) => splits;

/**
 * Series, scales and axes of the step chart: one series per stage row (talker, code predictor's worst
 * codebook, vocoder), the legend's value the exact |Δ| of the step under the cursor ("0 (equal)", never a
 * rounded 0); the logit rows on the left log axis, the vocoder on the right one; x whole steps, ending at the last.
 */
/**
 * `pxRatio`: the device pixel ratio (uPlot's bbox is in device pixels). `verdict`: the verdict's code-predictor
 * codebook, named in the legend at its step where the worst codebook (the one plotted) is another. A row with
 * nothing measured (`absent`, a vocoder without audio) is a legend entry that says why, with no axis.
 */
export function stepChartParts(deltas: readonly StepDelta[], rows: readonly StageRow[], c: Colors, pxRatio: number, verdict?: VerdictCodebook): Pick<uPlot.Options, 'series' | 'scales' | 'axes'> {
  const axis = { stroke: c.fg, grid: { stroke: c.grid } };
  const logit = rows.find((r) => r.stage !== 'vocoder');
  const audio = rows.find((r) => r.stage === 'vocoder' && r.absent === undefined);
  const window = stepWindow(deltas);
  const scales: uPlot.Scales = { x: { time: false, range: () => [window.min, window.max] } };
  const axes: uPlot.Axis[] = [{ ...axis, label: 'step', incrs: integerIncrs() }];
  if (logit) {
    scales.y = { distr: 3, range: [logit.range.min, logit.range.max] };
    axes.push({ ...axis, scale: 'y', label: '|Δ| logits', values: logValues(logit.range), splits: decadeSplits(logit.range, pxRatio), filter: allSplits });
  }
  if (audio) {
    scales.audio = { distr: 3, range: [audio.range.min, audio.range.max] };
    axes.push({ ...axis, scale: 'audio', side: 1, grid: { show: false }, label: '|A − B| audio', values: logValues(audio.range), splits: decadeSplits(audio.range, pxRatio), filter: allSplits });
  }
  const series: uPlot.Series[] = [
    { label: 'step' },
    ...rows.map((row): uPlot.Series => {
      const color = stageColor(row.stage, c);
      return {
        label: row.stage === 'code-predictor' ? 'code predictor |Δ| (worst codebook)' : `${STAGE_LABELS[row.stage]} |Δ|${row.absent === undefined ? '' : `: ${row.absent}`}`,
        scale: scaleOf(row.stage),
        stroke: color,
        width: 1.5,
        points: { show: true, size: 6, fill: color },
        value: (_u, _v, _si, idx) => {
          const d = idx === null ? undefined : deltas[idx];
          if (!d || row.absent !== undefined) return '—';
          return row.stage === 'code-predictor' ? codePredictorText(d, verdict) : deltaText(stageDelta(d, row.stage));
        },
      };
    }),
  ];
  return { series, scales, axes };
}
