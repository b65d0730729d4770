import type { KeyboardEvent } from 'react';
import { useCallback, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { comparisonSelectors, stepStartSec } from '../store/comparison/comparison-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';
import { integerIncrs } from '../lib/axis-ticks.js';
import { stepAfterKey } from '../lib/roving-keys.js';
import { colors, useColorScheme } from './theme.js';
import { lineChartOptions, UplotChart } from './uplot-chart.js';

/**
 * Talker logit mean and max per step for A and B; the first divergence marked; a click, or Left/Right on
 * the focused chart, picks a step and seeks to its frame.
 */
export function StepTrace() {
  const store = useStoreApi();
  const series = useStudio(comparisonSelectors.stepSeries);
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
  const data = useMemo(() => (series ? ([series.steps, series.meanA, series.maxA, series.meanB, series.maxB] as uPlot.AlignedData) : undefined), [series]);
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
    const c = colors();
    const options = lineChartOptions('step', 'talker logit', () => [
      { label: 'step' },
      { label: 'mean A', stroke: c.a, width: 1.5 },
      { label: 'max A', stroke: c.a, width: 1, dash: [4, 3] },
      { label: 'mean B', stroke: c.b, width: 1.5 },
      { label: 'max B', stroke: c.b, width: 1, dash: [4, 3] },
    ]);
    // Steps are whole numbers: ticks at 1, 2, 5, 10, … apart, never at "step 2.5".
    options.axes![0] = { ...options.axes![0], incrs: integerIncrs() };
    return {
      ...options,
      cursor: { drag: { x: false, y: false } },
      hooks: {
        draw: [
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
            if (firstStep === null) return;
            const x = u.valToPos(firstStep, 'x', true);
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = c.marker;
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillStyle = c.marker;
            ctx.font = `${12 * devicePixelRatio}px system-ui`;
            ctx.textAlign = 'left';
            ctx.textBaseline = 'top';
            ctx.fillText(`first divergence: step ${firstStep}`, x + 4 * devicePixelRatio, u.bbox.top + 2 * devicePixelRatio);
            ctx.restore();
          },
        ],
        ready: [
          (u: uPlot) => {
            chartRef.current = u;
            u.over.addEventListener('click', (e) => {
              const step = Math.round(u.posToVal(e.offsetX, 'x'));
              const steps = u.data[0];
              if (steps.length > 0) seekStep(Math.max(steps[0], Math.min(steps[steps.length - 1], step)));
            });
          },
        ],
      },
    };
  }, [firstStep, seekStep, scheme]);
  if (!data || !series) return <p className="muted">No step trace: this comparison has no per-step records (WAV import).</p>;
  const first = series.steps[0];
  const last = series.steps[series.steps.length - 1];
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
        aria-label="Step on the chart of talker logit mean and max per step, A and B"
        aria-valuemin={first}
        aria-valuemax={last}
        aria-valuenow={picked ?? first}
        aria-valuetext={picked === undefined ? 'No step picked' : stepText(picked)}
        data-testid="step-slider"
        onKeyDown={onKeyDown}
      >
        <UplotChart data={data} make={make} height={220} label="Talker logit mean and max per step, A and B" testId="step-chart" />
      </div>
    </div>
  );
}
