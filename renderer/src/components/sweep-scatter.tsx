import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { caseTitle } from '../../../electron/common/draw/sweep-charts.js';
import { drawScatterDots, scatterCases, scatterDotAt, scatterFrameSvg, scatterPlot, type ScatterDot } from '../../../electron/common/draw/sweep-scatter.js';
import { caseKey } from '../../../electron/common/sweep/sweep-case.js';
import { scatterDotAfterKey } from '../lib/scatter-keys.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

const W = 520;
const H = 240;
/** A drag shorter than this (plot units) either way is a click, not a brush. */
const BRUSH_MIN = 6;

/** The hover card beside the pointer, on the side towards the box's middle (anchored by that side, so it keeps its width). */
function cardPlace(p: { x: number; y: number; w: number; h: number }) {
  return {
    ...(p.x > p.w / 2 ? { right: p.w - p.x + 12 } : { left: p.x + 12 }),
    ...(p.y > p.h / 2 ? { bottom: p.h - p.y + 12 } : { top: p.y + 12 }),
  };
}

/**
 * The correlation × ΔLU scatter of the cases the filters keep (electron/common/draw/sweep-scatter.ts, the
 * code sweep.html is drawn by): frame and axes as SVG, the dots on a canvas laid over it (thousands of
 * SVG elements made a filter take most of a second at 10,000 cases). The pointer finds its dot by hit
 * testing: a hover card, a click opens the case, a drag on empty ground zooms to the dragged box. The
 * keyboard reaches the same dots (the chart is one tab stop): arrows move to the nearest dot that way
 * (scatter-keys.ts), Home/End to the first/last, Enter opens the case, Escape lets go; a ring marks the
 * dot and the card (a live region) names it.
 */
export function SweepScatter() {
  const store = useStoreApi();
  const cases = useStudio(sweepSelectors.filtered);
  const zoom = useStudio(sweepSelectors.zoom);
  /** The dot under the pointer, and the pointer's place in the box of size w × h. */
  const [hover, setHover] = useState<{ dot: ScatterDot; x: number; y: number; w: number; h: number }>();
  const [brush, setBrush] = useState<{ x0: number; y0: number; x1: number; y1: number }>();
  /** The dot the keyboard is on: an index into plot.dots. */
  const [keyDot, setKeyDot] = useState<number>();
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const plot = useMemo(() => scatterPlot(cases, W, H, zoom), [cases, zoom]);
  const frame = useMemo(() => scatterFrameSvg(plot), [plot]);
  const omitted = cases.length - scatterCases(cases).length;

  useLayoutEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const ratio = window.devicePixelRatio || 1;
    el.width = Math.round(W * ratio);
    el.height = Math.round(H * ratio);
    const ctx = el.getContext('2d')!;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, W, H);
    drawScatterDots(ctx, plot);
    // What is drawn, for tests and the bench: the canvas holds no elements to count.
    el.dataset.dots = String(plot.dots.length);
    setHover(undefined);
    setKeyDot(undefined);
  }, [plot]);

  /** The plot's own units of a pointer event (the chart may be drawn narrower than its viewBox). */
  const plotPoint = (e: PointerEvent<HTMLElement>) => {
    const r = canvas.current!.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * W) / r.width, y: ((e.clientY - r.top) * H) / r.height };
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    const p = plotPoint(e);
    if (brush) setBrush({ ...brush, x1: p.x, y1: p.y });
    const dot = scatterDotAt(plot, p.x, p.y);
    const r = box.current!.getBoundingClientRect();
    const [x, y] = [e.clientX - r.left, e.clientY - r.top];
    setHover(dot ? { dot, x, y, w: r.width, h: r.height } : undefined);
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    const p = plotPoint(e);
    if (brush && Math.abs(p.x - brush.x0) > BRUSH_MIN && Math.abs(p.y - brush.y0) > BRUSH_MIN) {
      const [a, b] = [plot.invert(brush.x0, brush.y0), plot.invert(p.x, p.y)];
      store.getState().zoomSweep({ x: [Math.min(a.x, b.x), Math.max(a.x, b.x)], y: [Math.min(a.y, b.y), Math.max(a.y, b.y)] });
    } else {
      const dot = scatterDotAt(plot, p.x, p.y);
      if (dot) void store.getState().openSweepCase(dot.c);
    }
    setBrush(undefined);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && keyDot !== undefined) {
      e.preventDefault();
      void store.getState().openSweepCase(plot.dots[keyDot].c);
      return;
    }
    if (e.key === 'Escape' && keyDot !== undefined) {
      e.preventDefault();
      setKeyDot(undefined);
      setHover(undefined);
      return;
    }
    const next = scatterDotAfterKey(plot.dots, keyDot, e.key);
    if (next === undefined) return;
    e.preventDefault();
    const dot = plot.dots[next];
    const r = box.current!.getBoundingClientRect();
    setKeyDot(next);
    setHover({ dot, x: (dot.x / W) * r.width, y: (dot.y / H) * r.height, w: r.width, h: r.height });
  };
  const ring = keyDot !== undefined ? plot.dots[keyDot] : undefined;
  const c = hover?.dot.c;
  return (
    <figure className="sweep-scatter-figure">
      <figcaption>
        Correlation × ΔLU, one dot per case{omitted > 0 ? ` (${omitted} ${omitted === 1 ? 'case' : 'cases'} not plotted: no correlation or no ΔLU)` : ''}
        {zoom && (
          <button type="button" className="small" onClick={() => store.getState().zoomSweep(undefined)}>
            Reset zoom
          </button>
        )}
      </figcaption>
      <div
        ref={box}
        className={`sweep-svg sweep-scatter-box${hover ? ' on-dot' : ''}`}
        title="Drag to zoom to a box; click a dot to open its case"
        tabIndex={0}
        role="group"
        aria-roledescription="scatter plot"
        aria-label={`Correlation against ΔLU, ${plot.dots.length} dot${plot.dots.length === 1 ? '' : 's'}: arrow keys move between cases, Enter opens one`}
        aria-keyshortcuts="ArrowLeft ArrowRight ArrowUp ArrowDown Home End Enter Escape"
        data-testid="sweep-scatter-keys"
        onKeyDown={onKey}
        onBlur={() => {
          setKeyDot(undefined);
          setHover(undefined);
        }}
        onPointerDown={(e) => {
          const p = plotPoint(e);
          if (!scatterDotAt(plot, p.x, p.y)) setBrush({ x0: p.x, y0: p.y, x1: p.x, y1: p.y });
        }}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerLeave={() => {
          setHover(undefined);
          setBrush(undefined);
        }}
      >
        <div dangerouslySetInnerHTML={{ __html: frame }} />
        <canvas ref={canvas} className="sweep-dots" data-testid="sweep-dots" aria-hidden="true" />
        {brush && (
          <div
            className="sweep-brush"
            style={{ left: `${(Math.min(brush.x0, brush.x1) / W) * 100}%`, top: `${(Math.min(brush.y0, brush.y1) / H) * 100}%`, width: `${(Math.abs(brush.x1 - brush.x0) / W) * 100}%`, height: `${(Math.abs(brush.y1 - brush.y0) / H) * 100}%` }}
          />
        )}
        {ring && <div className="sweep-dot-ring" data-testid="sweep-dot-ring" data-key={caseKey(ring.c)} style={{ left: `${(ring.x / W) * 100}%`, top: `${(ring.y / H) * 100}%` }} />}
        {hover && c && (
          <div className="sweep-card" role="status" data-testid="sweep-card" style={cardPlace(hover)}>
            <strong>{caseKey(c)}</strong>
            <div>{caseTitle(c).slice(caseKey(c).length + 2)}</div>
            {c.text && <div className="muted">“{c.text}”</div>}
            {hover.dot.count > 1 && <div className="muted">and {hover.dot.count - 1} more {c.verdict} here (the table lists them)</div>}
          </div>
        )}
      </div>
    </figure>
  );
}
