import type { KeyboardEvent } from 'react';
import { useEffect, useRef, useState } from 'react';
import { codesCellAt, codesLayout } from '../lib/codes-layout.js';
import { codesCellText, gridCellAfterKey, type GridCell } from '../lib/grid-keys.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { useStudio } from './store-context.js';
import { colors, useColorScheme } from './theme.js';

const codebookNote = (q: number) => (q === 1 ? '0 is the talker’s code' : `0 is the talker’s code, ${q === 2 ? '1' : `1–${q - 1}`} the code predictor’s`);

/**
 * The width in px of the element given to the returned callback ref, following resizes. A callback ref,
 * not a RefObject: the box is absent while a comparison has no codes and appears when one has, and the
 * observer must move to whichever element is mounted now (a RefObject never changes, so an effect on it
 * runs once and would miss a box that appears later, or keep watching one that was removed).
 */
function useWidth(): [number, (el: HTMLDivElement | null) => void] {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [width, setEl];
}

/**
 * Frames (columns, from 1) × codebooks (rows, 0..Q−1); a differing cell is drawn in the marker colour.
 * Hover, or the arrow keys on the focused grid, show both codes of a cell in one readout.
 */
export function CodesGrid() {
  const codes = useStudio(comparisonSelectors.codes);
  const ref = useRef<HTMLCanvasElement>(null);
  const cursorRef = useRef<HTMLDivElement>(null);
  const [width, box] = useWidth();
  const [hover, setHover] = useState<string>('');
  /** The keyboard's cell: shown with a ring and in the readout while the grid has the focus. */
  const [cell, setCell] = useState<GridCell>({ frame: 1, codebook: 0 });
  const [focused, setFocused] = useState(false);
  // Another comparison may have fewer frames or codebooks: start again at the first cell.
  useEffect(() => {
    setCell({ frame: 1, codebook: 0 });
  }, [codes]);
  // In braces: Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
  useEffect(() => {
    void cursorRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [cell]);
  const scheme = useColorScheme();
  const layout = codes && width > 0 ? codesLayout(width, codes.frames, codes.q) : undefined;
  useEffect(() => {
    const canvas = ref.current;
    if (!codes || !canvas || !layout) return;
    const { left, cellW, rowH } = layout;
    canvas.width = layout.width;
    canvas.height = layout.height;
    const ctx = canvas.getContext('2d')!;
    const c = colors();
    for (let f = 0; f < codes.frames; f++) {
      for (let k = 0; k < codes.q; k++) {
        const i = f * codes.q + k;
        const same = codes.a[i] === codes.b[i];
        // Equal codes: a grey whose shade follows the code value, so structure is visible.
        ctx.fillStyle = same ? `hsl(210, 12%, ${35 + ((codes.a[i] * 37) % 40)}%)` : c.marker;
        ctx.fillRect(left + f * cellW, k * rowH, cellW - (cellW > 4 ? 1 : 0), rowH - 1);
      }
    }
    const gridBottom = codes.q * rowH;
    ctx.fillStyle = c.muted;
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    for (const t of layout.codebookTicks) ctx.fillText(String(t.codebook), left - 4, t.y);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const t of layout.frameTicks) ctx.fillText(String(t.frame), t.x, gridBottom + 3);
    ctx.fillStyle = c.fg;
    ctx.font = '12px system-ui, sans-serif';
    ctx.fillText('frame', left + (codes.frames * cellW) / 2, gridBottom + 18);
    ctx.save();
    ctx.translate(12, gridBottom / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textBaseline = 'middle';
    ctx.fillText('codebook', 0, 0);
    ctx.restore();
  }, [codes, layout?.cellW, layout?.rowH, width, scheme]);
  if (!codes) return <p className="muted">No codes: this comparison has no per-step records (WAV import).</p>;
  const onMove = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const at = layout && codesCellAt(layout, codes.frames, codes.q, e.nativeEvent.offsetX, e.nativeEvent.offsetY);
    setHover(at ? codesCellText(codes, at) : '');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const next = gridCellAfterKey(cell, codes.frames, codes.q, e);
    if (!next) return;
    e.preventDefault();
    setHover('');
    setCell(next);
  };
  const readout = hover || (focused ? codesCellText(codes, cell) : 'Hover a cell, or focus the grid and use the arrow keys, to see both codes.');
  return (
    <div className="codes">
      <p className="muted">
        {codes.frames} frames (numbered from 1: frame N comes from step N) × {codes.q} codebooks (numbered from 0: {codebookNote(codes.q)});{' '}
        <span data-testid="codes-differing">{codes.differing}</span> cells differ (red).
      </p>
      <div className="codes-scroll" ref={box}>
        {/* The APG grid pattern needs a DOM cell per code; this is one canvas, so it is a single focusable
            widget (role application: a screen reader passes the arrows on) and the readout, a live region,
            says the cell the arrows moved to. */}
        <div className="codes-canvas">
          <canvas
            ref={ref}
            data-testid="codes-grid"
            tabIndex={0}
            role="application"
            aria-roledescription="codes grid"
            aria-label={`Codes grid, ${codes.differing} differing cells: arrow keys move between cells, Home and End to the row's ends`}
            aria-describedby="codes-readout"
            onMouseMove={onMove}
            onMouseLeave={() => setHover('')}
            onKeyDown={onKeyDown}
            onFocus={() => setFocused(true)}
            onBlur={() => setFocused(false)}
          />
          {focused && layout && (
            <div
              ref={cursorRef}
              className="codes-cursor"
              data-testid="codes-cursor"
              aria-hidden="true"
              style={{ left: layout.left + (cell.frame - 1) * layout.cellW, top: cell.codebook * layout.rowH, width: layout.cellW, height: layout.rowH }}
            />
          )}
        </div>
      </div>
      <p id="codes-readout" className="hover-readout" data-testid="codes-hover" aria-live="polite">
        {readout}
      </p>
    </div>
  );
}
