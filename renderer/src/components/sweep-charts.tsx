import { useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { stepHistogramSvg } from '../../../electron/common/draw/sweep-charts.js';
import { codebookLine, stageBreakdown } from '../../../electron/common/sweep/sweep-breakdown.js';
import type { SummaryCase } from '../../../electron/common/sweep/sweep-summary.js';
import { sweepSelectors } from '../store/sweep/sweep-selectors.js';
import { SweepScatter } from './sweep-scatter.js';
import { useStoreApi, useStudio } from './store-context.js';

const W = 520;
const H = 240;

/** Counts per first divergent step of these cases, as the summary's histogram is written. */
function histogramOf(cases: SummaryCase[]): { step: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const c of cases) if (c.firstStep !== null) counts.set(c.firstStep, (counts.get(c.firstStep) ?? 0) + 1);
  return [...counts].sort(([x], [y]) => x - y).map(([step, count]) => ({ step, count }));
}

/**
 * The first-divergent-step histogram of the cases the other filters keep (so its bins stay put while
 * one is chosen); a bar is a button (click, or Enter/Space when focused) that shows only its bin in the
 * table and the scatter, and again to show every step.
 */
function StepHistogram() {
  const store = useStoreApi();
  const cases = useStudio(sweepSelectors.filteredAnyStep);
  const selected = useStudio(sweepSelectors.selectedSteps);
  const svg = useMemo(() => stepHistogramSvg(histogramOf(cases), W, H, { selected: selected ?? undefined }), [cases, selected]);
  const choose = (target: EventTarget) => {
    const bar = (target as Element).closest?.('[data-bin]');
    if (!bar) return false;
    const [from, to] = [Number(bar.getAttribute('data-bin')), Number(bar.getAttribute('data-to'))];
    store.getState().setSweepFilter({ steps: selected?.from === from && selected.to === to ? null : { from, to } });
    return true;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if ((e.key === 'Enter' || e.key === ' ') && choose(e.target)) e.preventDefault();
  };
  return (
    <figure>
      <figcaption>First divergent step</figcaption>
      {svg ? (
        // The bars inside the markup are the buttons (role, tabindex, name); this only hears their clicks and keys.
        <div className="sweep-svg sweep-histogram-box" onClick={(e: MouseEvent) => choose(e.target)} onKeyDown={onKeyDown} dangerouslySetInnerHTML={{ __html: svg }} />
      ) : (
        <p className="muted">No case here diverged.</p>
      )}
    </figure>
  );
}

/**
 * The dashboard's figures for the cases the filters keep: the first-divergent-step histogram (a bin
 * filters), the correlation × ΔLU scatter (sweep-scatter.tsx) and the diverged cases by stage and codebook.
 */
export function SweepCharts() {
  const store = useStoreApi();
  const cases = useStudio(sweepSelectors.filtered);
  const stages = useMemo(() => stageBreakdown(cases), [cases]);
  return (
    <div className="sweep-charts">
      <StepHistogram />
      <SweepScatter />
      <figure>
        <figcaption>Where diverged cases first differ</figcaption>
        {stages.length === 0 ? (
          <p className="muted">No case here diverged.</p>
        ) : (
          <table className="sweep-stages" data-testid="sweep-stages">
            <thead>
              <tr>
                <th>Stage</th>
                <th>Cases</th>
                <th>Near-tie</th>
                <th>By codebook</th>
              </tr>
            </thead>
            <tbody>
              {stages.map((r) => (
                <tr key={r.stage}>
                  <td>
                    <button type="button" className="link" onClick={() => store.getState().setSweepFilter({ stage: r.stage })}>
                      {r.stage}
                    </button>
                  </td>
                  <td>{r.cases}</td>
                  <td>{r.nearTie}</td>
                  <td>{codebookLine(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </figure>
    </div>
  );
}
