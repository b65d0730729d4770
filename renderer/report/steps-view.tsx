import { useCallback, useMemo, useRef } from 'react';
import { drawSteps, type StepsFigure } from '../../electron/common/report/figures/draw-steps.js';
import type { FigureBox, FigureContext } from '../../electron/common/report/figures/figure-context.js';
import { CanvasFigure } from './canvas-figure.js';
import { useWidth } from './use-width.js';

/** Per-step |Δ| of the talker logit statistics on a log scale, with the tolerance and the first divergence. */
export function StepsView({ fig }: { fig: StepsFigure }) {
  const wrap = useRef<HTMLDivElement>(null);
  const width = useWidth(wrap);
  const box = useMemo<FigureBox>(() => ({ width, height: 240 }), [width]);
  const draw = useCallback((ctx: FigureContext, b: FigureBox) => drawSteps(ctx, fig, b), [fig]);
  return (
    <section aria-label="Per-step difference">
      <h2>Per-step |Δ| (largest difference of the talker logit statistics, log scale)</h2>
      <div ref={wrap} className="figure-wrap">
        <CanvasFigure box={box} draw={draw} label={`Per-step |Δ| over ${fig.steps.length} steps${fig.firstStep === null ? '' : `, first divergence at step ${fig.firstStep}`}`} data-testid="steps" />
      </div>
    </section>
  );
}
