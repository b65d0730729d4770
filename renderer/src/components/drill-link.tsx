import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { drillSelectors } from '../store/drill/drill-selectors.js';
import { useStoreApi, useStudio } from './store-context.js';

/**
 * The drill-down from the verdict: opens the Step trace tab at the drill panel, and starts the drill when
 * there is none yet (a diverged synthesis); with a result (or imported traces' module drill) it shows it.
 */
export function DrillLink() {
  const store = useStoreApi();
  const can = useStudio(drillSelectors.canDrill);
  const running = useStudio(drillSelectors.running);
  const hasResult = useStudio(drillSelectors.hasResult);
  const step = useStudio(comparisonSelectors.firstStep);
  if ((!can && !hasResult) || step === null || step === undefined) return null;
  const go = () => {
    store.getState().setTab('steps');
    if (can && !hasResult && !running) void store.getState().drillCurrent();
    // Over the next frames, while the tab renders its panel and the step chart above it takes its height.
    let frames = 10;
    const reveal = () => {
      document.querySelector('[data-testid="drill"], [data-testid="module-drill"]')?.scrollIntoView({ block: 'start' });
      if (--frames > 0) requestAnimationFrame(reveal);
    };
    requestAnimationFrame(reveal);
  };
  return (
    <button type="button" className="small" data-testid="drill-link" onClick={go} title="Inside the first divergent step: the first network input and node that differ (docs/drill.md)">
      {hasResult || running ? `Show the drill-down (step ${step})` : `Drill into step ${step}`}
    </button>
  );
}
