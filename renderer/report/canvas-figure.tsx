import { useEffect, useRef, type HTMLAttributes } from 'react';
import type { FigureBox, FigureContext } from '../../electron/common/report/figures/figure-context.js';

/**
 * A canvas that draws with one of the shared figure functions at the device's pixel ratio, redrawn when
 * `draw` changes (the same functions draw the PNGs beside report.md).
 */
export function CanvasFigure({ box, draw, label, ...rest }: { box: FigureBox; draw: (ctx: FigureContext, box: FigureBox) => void; label: string } & HTMLAttributes<HTMLCanvasElement>) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(box.width * ratio);
    canvas.height = Math.round(box.height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    draw(ctx, box);
  }, [box, draw]);
  return <canvas ref={ref} role="img" aria-label={label} style={{ width: box.width, height: box.height }} {...rest} />;
}
