import { useMemo, useRef, useState, type PointerEvent } from 'react';
import { caseTitle, scatterCases, scatterInvert, scatterSvg, stepHistogramSvg } from '../../../electron/common/draw/sweep-charts.js';
import { codebookLine, stageBreakdown } from '../../../electron/common/sweep/sweep-breakdown.js';
import { caseKey } from '../../../electron/common/sweep/sweep-case.js';
import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

const W = 520;
const H = 240;

/** Counts per first divergent step of these cases, as the summary's histogram is written. */
function histogramOf(cases: SummaryCase[]): { step: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const c of cases) if (c.firstStep !== null) counts.set(c.firstStep, (counts.get(c.firstStep) ?? 0) + 1);
  return [...counts].sort(([x], [y]) => x - y).map(([step, count]) => ({ step, count }));
}

/** The SVG's own coordinates of a pointer event (the chart may be drawn narrower than its viewBox). */
function svgPoint(e: PointerEvent<HTMLElement>): { x: number; y: number } | undefined {
  const svg = e.currentTarget.querySelector('svg');
  if (!svg) return undefined;
  const r = svg.getBoundingClientRect();
  return { x: ((e.clientX - r.left) * W) / r.width, y: ((e.clientY - r.top) * H) / r.height };
}

/**
 * The dashboard's figures for the cases the filters keep: the first-divergent-step histogram and the
 * correlation × ΔLU scatter (electron/common/draw/sweep-charts.ts, the code sweep.html is drawn by),
 * with a hover card per dot, a click that opens the case and a drag that zooms to the dragged box; and
 * the diverged cases by stage and codebook.
 */
export function SweepCharts() {
  const store = useStoreApi();
  const cases = useStudio(sweepSelectors.filtered);
  const zoom = useStudio(sweepSelectors.zoom);
  const [hover, setHover] = useState<{ c: SummaryCase; n: number; x: number; y: number }>();
  const [brush, setBrush] = useState<{ x0: number; y0: number; x1: number; y1: number }>();
  const box = useRef<HTMLDivElement>(null);
  const byKey = useMemo(() => new Map(cases.map((c) => [caseKey(c), c] as const)), [cases]);
  const histogram = useMemo(() => stepHistogramSvg(histogramOf(cases), W, H), [cases]);
  const scatter = useMemo(() => scatterSvg(cases, W, H, zoom), [cases, zoom]);
  const stages = useMemo(() => stageBreakdown(cases), [cases]);
  const omitted = cases.length - scatterCases(cases).length;
  const dotAt = (e: PointerEvent<HTMLElement>) => (e.target as Element).closest?.('[data-key]') ?? undefined;
  const caseAt = (e: PointerEvent<HTMLElement>) => byKey.get(dotAt(e)?.getAttribute('data-key') ?? '');
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = svgPoint(e);
    if (brush && p) setBrush({ ...brush, x1: p.x, y1: p.y });
    const c = caseAt(e);
    const r = box.current?.getBoundingClientRect();
    setHover(c && r ? { c, n: Number(dotAt(e)?.getAttribute('data-count') ?? 1), x: e.clientX - r.left, y: e.clientY - r.top } : undefined);
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    const c = caseAt(e);
    if (brush && Math.abs(brush.x1 - brush.x0) > 6 && Math.abs(brush.y1 - brush.y0) > 6) {
      const at = scatterInvert(cases, W, H, zoom);
      const [a, b] = [at(brush.x0, brush.y0), at(brush.x1, brush.y1)];
      store.getState().zoomSweep({ x: [Math.min(a.x, b.x), Math.max(a.x, b.x)], y: [Math.min(a.y, b.y), Math.max(a.y, b.y)] });
    } else if (c) void store.getState().openSweepCase(c);
    setBrush(undefined);
  };
  return (
    <div className="sweep-charts">
      <figure>
        <figcaption>First divergent step</figcaption>
        {histogram ? <div className="sweep-svg" dangerouslySetInnerHTML={{ __html: histogram }} /> : <p className="muted">No case here diverged.</p>}
      </figure>
      <figure>
        <figcaption>
          Correlation × ΔLU, one dot per case{omitted > 0 ? ` (${omitted} without both values not shown)` : ''}
          {zoom && (
            <button type="button" className="small" onClick={() => store.getState().zoomSweep(undefined)}>
              Reset zoom
            </button>
          )}
        </figcaption>
        <div
          ref={box}
          className="sweep-svg sweep-scatter-box"
          title="Drag to zoom to a box; click a dot to open its case"
          onPointerDown={(e) => {
            const p = svgPoint(e);
            if (p && !caseAt(e)) setBrush({ x0: p.x, y0: p.y, x1: p.x, y1: p.y });
          }}
          onPointerMove={onMove}
          onPointerUp={onUp}
          onPointerLeave={() => {
            setHover(undefined);
            setBrush(undefined);
          }}
        >
          <div dangerouslySetInnerHTML={{ __html: scatter }} />
          {brush && (
            <div
              className="sweep-brush"
              style={{ left: `${(Math.min(brush.x0, brush.x1) / W) * 100}%`, top: `${(Math.min(brush.y0, brush.y1) / H) * 100}%`, width: `${(Math.abs(brush.x1 - brush.x0) / W) * 100}%`, height: `${(Math.abs(brush.y1 - brush.y0) / H) * 100}%` }}
            />
          )}
          {hover && (
            <div className="sweep-card" role="status" data-testid="sweep-card" style={{ left: hover.x + 12, top: hover.y + 12 }}>
              <strong>{caseKey(hover.c)}</strong>
              <div>{caseTitle(hover.c).slice(caseKey(hover.c).length + 2)}</div>
              {hover.c.text && <div className="muted">“{hover.c.text}”</div>}
              {hover.n > 1 && <div className="muted">and {hover.n - 1} more {hover.c.verdict} here (the table lists them)</div>}
            </div>
          )}
        </div>
      </figure>
      <figure>
        <figcaption>Where diverged cases first differ</figcaption>
        {stages.length === 0 ? (
          <p className="muted">No case here diverged.</p>
        ) : (
          <table className="sweep-stages" data-testid="sweep-stages">
            <thead>
              <tr>
                <th>Stage</th>
                <th>Cases</th>
                <th>Near-tie</th>
                <th>By codebook</th>
              </tr>
            </thead>
            <tbody>
              {stages.map((r) => (
                <tr key={r.stage}>
                  <td>
                    <button type="button" className="link" onClick={() => store.getState().setSweepFilter({ stage: r.stage })}>
                      {r.stage}
                    </button>
                  </td>
                  <td>{r.cases}</td>
                  <td>{r.nearTie}</td>
                  <td>{codebookLine(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </figure>
    </div>
  );
}
