import type { KeyboardEvent } from 'react';
import { useCallback, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { bandLabels } from '../../../electron/common/draw/band-labels.js';
import { deltaRange } from '../../../electron/common/draw/step-delta.js';
import { comparisonSelectors, stepStartSec } from '../store/comparison/comparison-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';
import { integerIncrs } from '../../../electron/common/draw/axis-ticks.js';
import { stepAfterKey } from '../lib/roving-keys.js';
import { followViewport } from './follow-viewport.js';
import { colors, useColorScheme } from './theme.js';
import { drawChartDivergence, lineChartOptions, UplotChart } from './uplot-chart.js';

/**
 * Per step, |Δ| of the talker logit statistics (the largest |A − B| of mean, std, min, max) on a log
 * scale, so a 0.019 difference shows beside a 1e-6 one; the logit tolerance as a dashed line; a step
 * whose statistics are not finite on a side as a red band labelled NaN/Inf; the first divergence marked.
 * A click, or Left/Right on the focused chart, picks a step and seeks to its frame.
 */
export function StepTrace() {
  const store = useStoreApi();
  const series = useStudio(comparisonSelectors.stepDeltas);
  const divergence = useStudio(comparisonSelectors.divergence);
  const frameRate = useStudio(comparisonSelectors.frameRate);
  // A pick belongs to the series it was made on: a new comparison starts with none (no stale marker,
  // aria-valuenow never past the new last step).
  const [pick, setPick] = useState<{ series: typeof series; step: number }>();
  const picked = pick?.series === series ? pick?.step : undefined;
  // Read by the draw hook, so a new pick redraws the chart instead of rebuilding it. Set while rendering,
  // not in an effect: the chart (a child) redraws for a new series in its own effect, which runs first.
  const pickedRef = useRef<number | undefined>(undefined);
  pickedRef.current = picked;
  const chartRef = useRef<uPlot | undefined>(undefined);
  const scheme = useColorScheme();
  const firstStep = divergence?.firstStep ?? null;
  const tolerance = divergence?.tolerances.logitAbs;
  // uPlot's log scale takes positive values only: an equal step (|Δ| 0) has no point, like a missing one.
  const data = useMemo(() => (series ? ([series.map((d) => d.step), series.map((d) => (d.delta !== null && d.delta > 0 ? d.delta : null))] as uPlot.AlignedData) : undefined), [series]);
  const steps = series?.map((d) => d.step) ?? [];
  const seekStep = useCallback(
    (step: number) => {
      setPick({ series, step });
      pickedRef.current = step;
      chartRef.current?.redraw(false);
      if (frameRate > 0) store.getState().seek(stepStartSec(step, frameRate));
    },
    [frameRate, store, series],
  );
  const make = useCallback((): uPlot.Options => {
    let unfollow: (() => void) | undefined;
    const c = colors();
    const options = lineChartOptions('step', '|Δ| logit stats (log)', () => [
      { label: 'step' },
      { label: '|Δ|', stroke: c.d, width: 1.5, points: { show: true, size: 5, fill: c.d } },
    ]);
    const range = deltaRange(series ?? []);
    options.scales = { ...options.scales, y: { distr: 3, range: [range.min, range.max] } };
    options.axes![1] = { ...options.axes![1], values: (_u: uPlot, splits: (number | null)[]) => splits.map((v) => (v === null ? "" : v >= 0.01 && v < 1000 ? String(+v.toPrecision(3)) : v.toExponential(0))) };
    // Steps are whole numbers: ticks at 1, 2, 5, 10, … apart, never at "step 2.5".
    options.axes![0] = { ...options.axes![0], incrs: integerIncrs() };
    return {
      ...options,
      cursor: { drag: { x: false, y: false } },
      hooks: {
        destroy: [() => unfollow?.()],
        draw: [
          (u: uPlot) => {
            const ctx = u.ctx;
            ctx.save();
            if (tolerance !== undefined && tolerance > 0 && tolerance >= range.min && tolerance <= range.max) {
              const y = u.valToPos(tolerance, 'y', true);
              ctx.strokeStyle = c.muted;
              ctx.setLineDash([4 * devicePixelRatio, 3 * devicePixelRatio]);
              ctx.beginPath();
              ctx.moveTo(u.bbox.left, y);
              ctx.lineTo(u.bbox.left + u.bbox.width, y);
              ctx.stroke();
              ctx.setLineDash([]);
              ctx.fillStyle = c.muted;
              ctx.font = `${11 * devicePixelRatio}px system-ui`;
              ctx.textAlign = 'right';
              ctx.textBaseline = 'bottom';
              ctx.fillText(`tolerance ${tolerance}`, u.bbox.left + u.bbox.width - 4 * devicePixelRatio, y - 2 * devicePixelRatio);
            }
            // Not finite on a side: a band over the step, never a silent gap; one label per run of steps
            // with the same text, and none that would overlap another (band-labels.ts).
            const half = Math.abs(u.valToPos(1.5, 'x', true) - u.valToPos(1, 'x', true));
            const banded = (series ?? []).filter((d) => d.nonFinite || d.missing).map((d) => ({ step: d.step, text: d.nonFinite ?? `${d.missing === 'A' ? 'B' : 'A'} only` }));
            ctx.fillStyle = c.marker;
            for (const d of banded) {
              const x = u.valToPos(d.step, 'x', true);
              ctx.globalAlpha = 0.3;
              ctx.fillRect(x - half, u.bbox.top, Math.max(2, 2 * half), u.bbox.height);
            }
            ctx.globalAlpha = 1;
            ctx.font = `${11 * devicePixelRatio}px system-ui`;
            ctx.textAlign = 'center';
            ctx.textBaseline = 'bottom';
            const labels = bandLabels(banded, (step) => u.valToPos(step, 'x', true), (t) => ctx.measureText(t).width, 6 * devicePixelRatio);
            for (const l of labels) ctx.fillText(l.text, l.x, u.bbox.top + u.bbox.height - 2 * devicePixelRatio);
            // The labels as drawn (CSS px), for a test to check that none overlaps.
            u.root.dataset.bandLabels = JSON.stringify(labels.map((l) => [l.left / devicePixelRatio, l.right / devicePixelRatio, l.text]));
            ctx.restore();
          },
          (u: uPlot) => {
            const step = pickedRef.current;
            if (step === undefined) return;
            const x = u.valToPos(step, 'x', true);
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = c.fg;
            ctx.lineWidth = 1.5 * devicePixelRatio;
            ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.restore();
          },
          (u: uPlot) => {
            if (firstStep !== null) drawChartDivergence(u, firstStep, c);
          },
        ],
        ready: [
          (u: uPlot) => {
            chartRef.current = u;
            // The same time window as the lanes above, in steps (frame N from step N).
            if (frameRate > 0) unfollow = followViewport(store, u, (sec) => sec * frameRate + 1);
            u.over.addEventListener('click', (e) => {
              const step = Math.round(u.posToVal(e.offsetX, 'x'));
              const steps = u.data[0];
              if (steps.length > 0) seekStep(Math.max(steps[0], Math.min(steps[steps.length - 1], step)));
            });
          },
        ],
      },
    };
  }, [firstStep, seekStep, scheme, series, tolerance, frameRate, store]);
  if (!data || !series) return <p className="muted">No step trace: this comparison has no per-step records (WAV import).</p>;
  const first = steps[0];
  const last = steps[steps.length - 1];
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = stepAfterKey(first, last, picked, e.key);
    if (next === undefined) return;
    e.preventDefault();
    seekStep(next);
  };
  const stepText = (step: number) => `Step ${step} → ${stepStartSec(step, frameRate || 1).toFixed(3)} s`;
  return (
    <div className="step-trace">
      <p className="muted">
        Click a step, or focus the chart and press Left/Right, to move the playhead to the frame it produced (frame N from step N, {frameRate} frames/s).
        {firstStep !== null && (
          <>
            {' '}
            <button type="button" className="small" onClick={() => seekStep(firstStep)}>
              Go to first divergence (step {firstStep})
            </button>
          </>
        )}
        {picked !== undefined && (
          <span data-testid="picked-step" data-step={picked}>
            {' '}
            {stepText(picked)}
          </span>
        )}
      </p>
      <div
        className="step-slider"
        role="slider"
        tabIndex={0}
        aria-label="Step on the chart of per-step |Δ| of the talker logit statistics, A vs B"
        aria-valuemin={first}
        aria-valuemax={last}
        aria-valuenow={picked ?? first}
        aria-valuetext={picked === undefined ? 'No step picked' : stepText(picked)}
        data-testid="step-slider"
        onKeyDown={onKeyDown}
      >
        <UplotChart data={data} make={make} height={220} label="Per-step |Δ| of the talker logit statistics (largest |A − B| of mean, std, min, max), log scale" testId="step-chart" />
      </div>
    </div>
  );
}
