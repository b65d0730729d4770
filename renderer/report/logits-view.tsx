import { useCallback, useMemo } from 'react';
import type uPlot from 'uplot';
import type { ReportPageData } from '../../electron/common/report/html/report-page-data.js';
import { integerIncrs } from '../../electron/common/draw/axis-ticks.js';
import { colors } from '../src/components/theme.js';
import { drawChartDivergence, lineChartOptions, UplotChart } from '../src/components/uplot-chart.js';

/**
 * The studio's step-trace chart (talker logit mean and max per step, A and B), drawn by the studio's own
 * uPlot component and options, with the first divergence marked as the studio marks it.
 */
export function LogitsView({ logits, firstStep }: { logits: ReportPageData['logits']; firstStep: number | null }) {
  const data = useMemo(
    () => [logits.map((l) => l.step), logits.map((l) => l.meanA), logits.map((l) => l.maxA), logits.map((l) => l.meanB), logits.map((l) => l.maxB)] as uPlot.AlignedData,
    [logits],
  );
  const make = useCallback((): uPlot.Options => {
    const c = colors();
    const options = lineChartOptions('step', 'talker logit', () => [
      { label: 'step' },
      { label: 'mean A', stroke: c.a, width: 1.5 },
      { label: 'max A', stroke: c.a, width: 1, dash: [4, 3] },
      { label: 'mean B', stroke: c.b, width: 1.5 },
      { label: 'max B', stroke: c.b, width: 1, dash: [4, 3] },
    ]);
    options.axes![0] = { ...options.axes![0], incrs: integerIncrs() };
    const marker = (u: uPlot) => {
      if (firstStep !== null) drawChartDivergence(u, firstStep, c);
    };
    return { ...options, cursor: { drag: { x: false, y: false } }, hooks: { draw: [marker] } };
  }, [firstStep]);
  return (
    <section aria-label="Talker logits per step">
      <h2>Talker logit mean and max per step, A and B (as the studio's step trace shows them)</h2>
      <UplotChart data={data} make={make} height={220} label="Talker logit mean and max per step, A and B" testId="logits" />
    </section>
  );
}
