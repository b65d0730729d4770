import type { KeyboardEvent } from 'react';
import { useCallback, useMemo, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { bandLabels } from '../../../electron/common/draw/band-labels.js';
import { STAGE_LABELS, stageDelta, stageOfDivergence, verdictCodebook } from '../../../electron/common/draw/step-delta.js';
import { comparisonSelectors, stepStartSec } from '../store/comparison/comparison-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';
import { stepAfterKey } from '../lib/roving-keys.js';
import { followViewport } from './follow-viewport.js';
import { colors, useColorScheme } from './theme.js';
import { scaleOf, stepChartData, stepChartParts, stepWindow } from './step-chart-options.js';
import { drawChartDivergence, UplotChart } from './uplot-chart.js';

/**
 * Per step, |Δ| of every stage on log scales: the talker's logit statistics, the code predictor's worst
 * codebook (the largest |A − B| of mean, std, min, max, top-5), and the vocoder's frame of audio samples (right
 * axis); each tolerance as a dashed line always on its scale; an equal step on the axis floor labelled "0"; a
 * step whose statistics are not finite on a side as a red band labelled NaN/Inf; the first divergence marked,
 * its stage's point ringed. The legend gives each stage's exact |Δ| at the cursor. A click, or Left/Right on
 * the focused chart, picks a step and seeks to its frame.
 */
export function StepTrace() {
  const store = useStoreApi();
  const series = useStudio(comparisonSelectors.stepDeltas);
  const rows = useStudio(comparisonSelectors.stageRows);
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
  const markedStage = stageOfDivergence(divergence?.stage ?? null);
  const verdict = useMemo(() => verdictCodebook(divergence), [divergence]);
  const data = useMemo(() => (series && rows ? stepChartData(series, rows) : undefined), [series, rows]);
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
    const parts = stepChartParts(series ?? [], rows ?? [], c, devicePixelRatio || 1, verdict);
    const window = stepWindow(series ?? []);
    return {
      width: 0,
      height: 0,
      ...parts,
      cursor: { drag: { x: false, y: false } },
      hooks: {
        destroy: [() => unfollow?.()],
        draw: [
          (u: uPlot) => {
            const ctx = u.ctx;
            ctx.save();
            const ratio = devicePixelRatio;
            // Each row's tolerance on its own scale, labelled with what it bounds.
            const drawn = new Set<string>();
            for (const row of rows ?? []) {
              const scale = scaleOf(row.stage);
              if (row.tolerance === undefined || !(row.tolerance > 0) || drawn.has(scale)) continue;
              drawn.add(scale);
              const y = u.valToPos(row.tolerance, scale, true);
              ctx.strokeStyle = c.muted;
              ctx.setLineDash([4 * ratio, 3 * ratio]);
              ctx.beginPath();
              ctx.moveTo(u.bbox.left, y);
              ctx.lineTo(u.bbox.left + u.bbox.width, y);
              ctx.stroke();
              ctx.setLineDash([]);
              ctx.fillStyle = c.muted;
              ctx.font = `${11 * ratio}px system-ui`;
              ctx.textAlign = scale === 'audio' ? 'left' : 'right';
              ctx.textBaseline = 'bottom';
              const text = `${scale === 'audio' ? 'audio' : 'logit'} tolerance ${row.tolerance}`;
              ctx.fillText(text, scale === 'audio' ? u.bbox.left + 4 * ratio : u.bbox.left + u.bbox.width - 4 * ratio, y - 2 * ratio);
            }
            // The x window and where each line was drawn (CSS px from the plot's top), for a test to find them inside the plot.
            u.root.dataset.xRange = `${u.scales.x.min} ${u.scales.x.max}`;
            u.root.dataset.tolerances = JSON.stringify(
              (rows ?? []).filter((r) => r.tolerance !== undefined).map((r) => [r.stage, r.tolerance, (u.valToPos(r.tolerance!, scaleOf(r.stage), true) - u.bbox.top) / ratio, u.bbox.height / ratio]),
            );
            // Not finite or missing on a side, at any stage: a band over the step, never a silent gap; one label
            // per run of steps with the same text, and none that would overlap another (band-labels.ts).
            const half = Math.abs(u.valToPos(1.5, 'x', true) - u.valToPos(1, 'x', true));
            const banded = (series ?? []).flatMap((d) => {
              const bad = (rows ?? []).map((r) => stageDelta(d, r.stage)).find((v) => v?.nonFinite || v?.missing);
              return bad ? [{ step: d.step, text: bad.nonFinite ?? `${bad.missing === 'A' ? 'B' : 'A'} only` }] : [];
            });
            ctx.fillStyle = c.marker;
            for (const d of banded) {
              const x = u.valToPos(d.step, 'x', true);
              ctx.globalAlpha = 0.3;
              ctx.fillRect(x - half, u.bbox.top, Math.max(2, 2 * half), u.bbox.height);
            }
            ctx.globalAlpha = 1;
            ctx.font = `${11 * ratio}px system-ui`;
            ctx.textAlign = 'center';
            ctx.textBaseline = 'bottom';
            const labels = bandLabels(banded, (step) => u.valToPos(step, 'x', true), (t) => ctx.measureText(t).width, 6 * ratio);
            for (const l of labels) ctx.fillText(l.text, l.x, u.bbox.top + u.bbox.height - 2 * ratio);
            // The labels as drawn (CSS px), for a test to check that none overlaps.
            u.root.dataset.bandLabels = JSON.stringify(labels.map((l) => [l.left / ratio, l.right / ratio, l.text]));
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
            if (firstStep === null) return;
            drawChartDivergence(u, firstStep, c);
            // The diverged stage's point at that step, ringed in the marker colour.
            const r = (rows ?? []).findIndex((row) => row.stage === markedStage);
            const i = (series ?? []).findIndex((d) => d.step === firstStep);
            const v = r >= 0 && i >= 0 ? u.data[r + 1][i] : null;
            if (v === null || v === undefined) return;
            const ctx = u.ctx;
            ctx.save();
            ctx.strokeStyle = c.marker;
            ctx.lineWidth = 2 * devicePixelRatio;
            ctx.beginPath();
            ctx.arc(u.valToPos(firstStep, 'x', true), u.valToPos(v, scaleOf(rows![r].stage), true), 7 * devicePixelRatio, 0, 2 * Math.PI);
            ctx.stroke();
            ctx.restore();
          },
        ],
        ready: [
          (u: uPlot) => {
            chartRef.current = u;
            // The same time window as the lanes above, in steps (frame N from step N, its point at the frame's middle).
            if (frameRate > 0) unfollow = followViewport(store, u, (sec) => sec * frameRate + 0.5, window);
            u.over.addEventListener('click', (e) => {
              const step = Math.round(u.posToVal(e.offsetX, 'x'));
              const steps = u.data[0];
              if (steps.length > 0) seekStep(Math.max(steps[0], Math.min(steps[steps.length - 1], step)));
            });
          },
        ],
      },
    };
  }, [firstStep, markedStage, verdict, seekStep, scheme, series, rows, frameRate, store]);
  if (!data || !series || !rows) return <p className="muted">No step trace: this comparison has no per-step records (WAV import).</p>;
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
        aria-label="Step on the chart of per-step |Δ| of A and B at each stage"
        aria-valuemin={first}
        aria-valuemax={last}
        aria-valuenow={picked ?? first}
        aria-valuetext={picked === undefined ? 'No step picked' : stepText(picked)}
        data-testid="step-slider"
        onKeyDown={onKeyDown}
      >
        <UplotChart data={data} make={make} height={220} label={`Per-step |Δ| of A and B, log scale: ${rows.map((r) => STAGE_LABELS[r.stage]).join(", ")}`} testId="step-chart" />
      </div>
    </div>
  );
}
