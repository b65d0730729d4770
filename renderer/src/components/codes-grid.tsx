import { useEffect, useRef, useState } from 'react';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { useStudio } from './store-context.js';
import { colors, useColorScheme } from './theme.js';

/** Frames (columns) × codebooks (rows); a differing cell is drawn in the marker colour, hover shows both codes. */
export function CodesGrid() {
  const codes = useStudio(comparisonSelectors.codes);
  const ref = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<string>('');
  const scheme = useColorScheme();
  const cell = codes ? Math.max(3, Math.min(14, Math.floor(1100 / Math.max(1, codes.frames)))) : 0;
  const rowH = 14;
  useEffect(() => {
    const canvas = ref.current;
    if (!codes || !canvas) return;
    canvas.width = codes.frames * cell;
    canvas.height = codes.q * rowH;
    const ctx = canvas.getContext('2d')!;
    const c = colors();
    for (let f = 0; f < codes.frames; f++) {
      for (let k = 0; k < codes.q; k++) {
        const i = f * codes.q + k;
        const same = codes.a[i] === codes.b[i];
        // Equal codes: a grey whose shade follows the code value, so structure is visible.
        ctx.fillStyle = same ? `hsl(210, 12%, ${35 + ((codes.a[i] * 37) % 40)}%)` : c.marker;
        ctx.fillRect(f * cell, k * rowH, cell - (cell > 4 ? 1 : 0), rowH - 1);
      }
    }
  }, [codes, cell, scheme]);
  if (!codes) return <p className="muted">No codes: this comparison has no per-step records (WAV import).</p>;
  const onMove = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const f = Math.floor(e.nativeEvent.offsetX / cell);
    const k = Math.floor(e.nativeEvent.offsetY / rowH);
    if (f < 0 || f >= codes.frames || k < 0 || k >= codes.q) return setHover('');
    const i = f * codes.q + k;
    const show = (v: number) => (v < 0 ? '—' : String(v));
    setHover(`frame ${f + 1}, codebook ${k}: A ${show(codes.a[i])} · B ${show(codes.b[i])}${codes.a[i] === codes.b[i] ? '' : '  (differ)'}`);
  };
  return (
    <div className="codes">
      <p className="muted">
        {codes.frames} frames × {codes.q} codebooks; <span data-testid="codes-differing">{codes.differing}</span> cells differ (red).
      </p>
      <div className="codes-scroll">
        <canvas ref={ref} data-testid="codes-grid" aria-label={`Codes grid, ${codes.differing} differing cells`} onMouseMove={onMove} onMouseLeave={() => setHover('')} />
      </div>
      <p className="hover-readout" data-testid="codes-hover" aria-live="polite">
        {hover || 'Hover a cell to see both codes.'}
      </p>
    </div>
  );
}
