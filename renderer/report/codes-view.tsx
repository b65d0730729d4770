import { useCallback, useMemo, useRef } from 'react';
import { codesData, drawCodesLane, type CodesData } from '../../electron/common/draw/codes.js';
import { FIGURE_PALETTE as C, type DrawBox, type DrawContext } from '../../electron/common/draw/draw-context.js';
import { codesLayout } from '../src/lib/codes-layout.js';
import { CanvasFigure } from './canvas-figure.js';
import { useWidth } from './use-width.js';

type Codes = (number[] | null)[];

/** The studio's codes lane over frames instead of time (frame N spans [N − 1, N)), with both axes labelled. */
function drawCodes(ctx: DrawContext, codes: CodesData, box: DrawBox): void {
  const layout = codesLayout(box.width, codes.frames, codes.q);
  ctx.save();
  ctx.fillStyle = C.background;
  ctx.fillRect(0, 0, box.width, box.height);
  ctx.translate(layout.left, 0);
  drawCodesLane(ctx, codes, 1, { start: 0, end: codes.frames }, codes.frames * layout.cellW, codes.q * layout.rowH, C.marker);
  ctx.translate(-layout.left, 0);
  ctx.font = C.font;
  ctx.fillStyle = C.fg;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of layout.codebookTicks) ctx.fillText(String(t.codebook), layout.left - 6, t.y);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of layout.frameTicks) ctx.fillText(String(t.frame), t.x, codes.q * layout.rowH + 4);
  ctx.fillText('frame (= step)', layout.left + (codes.frames * layout.cellW) / 2, codes.q * layout.rowH + 18);
  ctx.restore();
}

/** The codes grid: frames across, codebooks down (0 = the talker's), differing cells in red. */
export function CodesView({ a, b }: { a: Codes; b: Codes }) {
  const wrap = useRef<HTMLDivElement>(null);
  const available = useWidth(wrap);
  const codes = useMemo(() => codesData(a, b), [a, b]);
  const { frames, q } = codes;
  const layout = codesLayout(available, frames, q);
  const box = useMemo<DrawBox>(() => ({ width: Math.max(available, layout.width), height: layout.height }), [available, layout.width, layout.height]);
  const draw = useCallback((ctx: DrawContext, bx: DrawBox) => drawCodes(ctx, codes, bx), [codes]);
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
