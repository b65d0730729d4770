import { drawStepDeltas } from '../../../../electron/common/draw/steps.js';
import { STAGE_LABELS, stageOfDivergence, type Stage } from '../../../../electron/common/draw/step-delta.js';
import { comparisonSelectors } from '../../store/comparison/comparison-selectors.js';
import type { LaneInputs } from '../../store/view/lane-selectors.js';
import type { colors } from '../theme.js';
import type { LaneSpec } from './lane-specs.js';

const SHORT_NAMES: Record<Stage, string> = { talker: 'talker', 'code-predictor': 'code pred.', vocoder: 'vocoder' };

/**
 * The per-step |Δ| lane: a row per stage measured (talker, code predictor's worst codebook, vocoder), each on
 * its log scale with its tolerance dashed, named beside the lane; the first divergence outlined in its stage's
 * row and that row's name marked. `rowPx`: height of one row. Undefined without a step trace.
 */
export function stepLane(s: LaneInputs, c: ReturnType<typeof colors>, rowPx: number): LaneSpec | undefined {
  const deltas = comparisonSelectors.stepDeltas(s);
  const rows = comparisonSelectors.stageRows(s);
  const frameRate = comparisonSelectors.frameRate(s);
  if (!deltas || !rows || rows.length === 0 || !(frameRate > 0)) return undefined;
  const divergence = comparisonSelectors.divergence(s);
  const marked = divergence && divergence.firstStep !== null ? { step: divergence.firstStep, stage: stageOfDivergence(divergence.stage) } : undefined;
  const names = rows.map((r) => STAGE_LABELS[r.stage]).join(', ');
  return {
    id: 'steps',
    label: '|Δ|',
    aria: `Per-step |Δ| of A and B, log scale, a row per stage (top to bottom: ${names}); an equal step is a tick on its row's floor${marked?.stage ? `; first divergence at step ${marked.step} in the ${STAGE_LABELS[marked.stage]} row` : ''}`,
    testId: 'step-lane',
    height: rows.length * rowPx,
    axis: {
      testId: 'stage-axis',
      ticks: rows.map((r, i) => ({ fromTop: (i + 0.5) / rows.length, label: SHORT_NAMES[r.stage], tone: r.stage === marked?.stage ? ('marked' as const) : undefined })),
    },
    draw: (ctx, vp, w, h) => drawStepDeltas(ctx, deltas, rows, frameRate, vp, w, h, { bar: c.d, marker: c.marker, grid: c.grid, muted: c.muted }, marked),
  };
}
