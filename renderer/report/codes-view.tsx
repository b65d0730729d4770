import { useCallback, useMemo, useRef } from 'react';
import { FIGURE_COLORS as C, FIGURE_FONT, type FigureBox, type FigureContext } from '../../electron/common/report/figures/figure-context.js';
import { codesLayout } from '../src/lib/codes-layout.js';
import { CanvasFigure } from './canvas-figure.js';
import { useWidth } from './use-width.js';

type Codes = (number[] | null)[];

/** Grey by code value; red where A and B picked different codes; blank where a side has no frame. */
function drawCodes(ctx: FigureContext, a: Codes, b: Codes, q: number, box: FigureBox): void {
  const frames = Math.max(a.length, b.length);
  const layout = codesLayout(box.width, frames, q);
  ctx.save();
  ctx.fillStyle = C.background;
  ctx.fillRect(0, 0, box.width, box.height);
  for (let f = 0; f < frames; f++) {
    for (let k = 0; k < q; k++) {
      const ca = a[f]?.[k];
      const cb = b[f]?.[k];
      if (ca === undefined && cb === undefined) continue;
      const shade = 215 - ((ca ?? cb ?? 0) % 8) * 12;
      ctx.fillStyle = ca !== cb ? C.marker : `rgb(${shade},${shade},${shade + 10})`;
      ctx.fillRect(layout.left + f * layout.cellW, k * layout.rowH, Math.max(1, layout.cellW - 1), layout.rowH - 1);
    }
  }
  ctx.font = FIGURE_FONT;
  ctx.fillStyle = C.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of layout.codebookTicks) ctx.fillText(String(t.codebook), layout.left - 6, t.y);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of layout.frameTicks) ctx.fillText(String(t.frame), t.x, q * layout.rowH + 4);
  ctx.fillText('frame (= step)', layout.left + (frames * layout.cellW) / 2, q * layout.rowH + 18);
  ctx.restore();
}

/** The codes grid: frames across, codebooks down (0 = the talker's), differing cells in red. */
export function CodesView({ a, b }: { a: Codes; b: Codes }) {
  const wrap = useRef<HTMLDivElement>(null);
  const available = useWidth(wrap);
  const q = Math.max(0, ...[...a, ...b].map((c) => c?.length ?? 0));
  const frames = Math.max(a.length, b.length);
  const layout = codesLayout(available, frames, q);
  const box = useMemo<FigureBox>(() => ({ width: Math.max(available, layout.width), height: layout.height }), [available, layout.width, layout.height]);
  const draw = useCallback((ctx: FigureContext, bx: FigureBox) => drawCodes(ctx, a, b, q, bx), [a, b, q]);
  const differing = a.reduce((n, codes, f) => n + (codes ?? []).filter((c, k) => b[f]?.[k] !== c).length, 0);
  return (
    <section aria-label="Codes">
      <h2>Codes ({frames} frames × {q} codebooks, {differing} cells differ)</h2>
      <div ref={wrap} className="figure-wrap scroll-x">
        <CanvasFigure box={box} draw={draw} label={`Codes grid, ${differing} cells where A and B differ`} data-testid="codes" />
      </div>
    </section>
  );
}
