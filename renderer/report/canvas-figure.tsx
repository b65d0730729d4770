import { useEffect, useRef, type HTMLAttributes } from 'react';
import type { DrawBox, DrawContext } from '../../electron/common/draw/draw-context.js';

/**
 * A canvas that draws with one of the shared drawing functions (electron/common/draw: the studio's lanes
 * and the PNGs beside report.md are drawn by the same ones) at the device's pixel ratio, redrawn when
 * `draw` changes.
 */
export function CanvasFigure({ box, draw, label, ...rest }: { box: DrawBox; draw: (ctx: DrawContext, box: DrawBox) => void; label: string } & HTMLAttributes<HTMLCanvasElement>) {
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
