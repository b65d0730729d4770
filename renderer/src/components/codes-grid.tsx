import { useEffect, useRef, useState } from 'react';
import { codesCellAt, codesLayout } from '../lib/codes-layout.js';
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

/** Frames (columns, from 1) × codebooks (rows, 0..Q−1); a differing cell is drawn in the marker colour, hover shows both codes. */
export function CodesGrid() {
  const codes = useStudio(comparisonSelectors.codes);
  const ref = useRef<HTMLCanvasElement>(null);
  const [width, box] = useWidth();
  const [hover, setHover] = useState<string>('');
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
    const cell = layout && codesCellAt(layout, codes.frames, codes.q, e.nativeEvent.offsetX, e.nativeEvent.offsetY);
    if (!cell) return setHover('');
    const i = (cell.frame - 1) * codes.q + cell.codebook;
    const show = (v: number) => (v < 0 ? '—' : String(v));
    setHover(`frame ${cell.frame}, codebook ${cell.codebook}: A ${show(codes.a[i])} · B ${show(codes.b[i])}${codes.a[i] === codes.b[i] ? '' : '  (differ)'}`);
  };
  return (
    <div className="codes">
      <p className="muted">
        {codes.frames} frames (numbered from 1: frame N comes from step N) × {codes.q} codebooks (numbered from 0: {codebookNote(codes.q)});{' '}
        <span data-testid="codes-differing">{codes.differing}</span> cells differ (red).
      </p>
      <div className="codes-scroll" ref={box}>
        <canvas ref={ref} data-testid="codes-grid" aria-label={`Codes grid, ${codes.differing} differing cells`} onMouseMove={onMove} onMouseLeave={() => setHover('')} />
      </div>
      <p className="hover-readout" data-testid="codes-hover" aria-live="polite">
        {hover || 'Hover a cell to see both codes.'}
      </p>
    </div>
  );
}
