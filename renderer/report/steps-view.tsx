import { useCallback, useMemo, useRef } from 'react';
import { FIGURE_PALETTE, type DrawBox, type DrawContext } from '../../electron/common/draw/draw-context.js';
import { drawStepsFigure, type StepsFigure } from '../../electron/common/draw/steps-figure.js';
import { CanvasFigure } from './canvas-figure.js';
import { useWidth } from './use-width.js';

/** Per-step |Δ| of the talker logit statistics on a log scale (the studio's step lane), with the tolerance and the first divergence. */
export function StepsView({ fig }: { fig: StepsFigure }) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap);
  const box = useMemo<DrawBox>(() => ({ width, height: 240 }), [width]);
  const draw = useCallback((ctx: DrawContext, b: DrawBox) => drawStepsFigure(ctx, fig, b, FIGURE_PALETTE), [fig]);
  return (
    <section aria-label="Per-step difference">
      <h2>Per-step |Δ| (largest difference of the talker logit statistics, log scale)</h2>
      <div ref={wrap} className="figure-wrap">
        <CanvasFigure box={box} draw={draw} label={`Per-step |Δ| over ${fig.deltas.length} steps${fig.firstStep === null ? '' : `, first divergence at step ${fig.firstStep}`}`} data-testid="steps" />
      </div>
    </section>
  );
}
