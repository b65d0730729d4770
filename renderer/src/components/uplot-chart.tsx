import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { markerLabel } from '../../../electron/common/draw/draw-context.js';
import { drawMarks, type OverlayColors } from '../../../electron/common/draw/marks.js';
import { fmtTick } from '../lib/format.js';
import { colors } from './theme.js';

/**
 * A uPlot chart sized to its container. `make` builds the options for a width (so colours and hooks
 * are read fresh); the chart is rebuilt when `data` or `make` change and resized with the container.
 */
export function UplotChart({ data, make, height, label, testId }: { data: uPlot.AlignedData; make: (width: number) => uPlot.Options; height: number; label: string; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const width = Math.max(200, el.clientWidth);
    const chart = new uPlot({ ...make(width), width, height }, data, el);
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(200, el.clientWidth), height }));
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
    };
  }, [data, make, height]);
  return <div ref={ref} className="chart" role="img" aria-label={label} data-testid={testId} />;
}

/** Options of a numeric-x line chart in the theme's colours; `series` gets those colours from `c`. */
export function lineChartOptions(
  xLabel: string,
  yLabel: string,
  series: (c: ReturnType<typeof colors>) => uPlot.Series[],
): uPlot.Options {
  const c = colors();
  // Tick labels through the metrics' formatter, so a negative tick has the same minus (U+2212).
  const values = (_u: uPlot, splits: number[], _axis: number, _space: number, incr: number) => splits.map((v) => fmtTick(v, incr));
  const axis = { stroke: c.fg, grid: { stroke: c.grid }, values };
  return {
    width: 0,
    height: 0,
    scales: { x: { time: false } },
    axes: [{ ...axis, label: xLabel }, { ...axis, label: yLabel }],
    series: series(c),
  };
}

/**
 * The first divergence on a chart whose x is the step, drawn by the function that marks it on the lanes,
 * report.html and the PNGs (drawMarks), over the plot area, labelled at its top.
 */
export function drawChartDivergence(u: uPlot, step: number, c: OverlayColors & { fg: string }): void {
  const ratio = devicePixelRatio || 1;
  const width = u.bbox.width / ratio;
  const vp = { start: u.scales.x.min ?? 0, end: u.scales.x.max ?? 1 };
  u.ctx.save();
  u.ctx.translate(u.bbox.left, u.bbox.top);
  u.ctx.scale(ratio, ratio);
  drawMarks(u.ctx, vp, width, u.bbox.height / ratio, { divergence: step }, c);
  u.ctx.font = '12px system-ui';
  if (step >= vp.start && step <= vp.end) markerLabel(u.ctx, ((step - vp.start) / (vp.end - vp.start)) * width, 0, width, `first divergence: step ${step}`, c.marker);
  u.ctx.restore();
}
