import { useCallback, useMemo } from 'react';
import type uPlot from 'uplot';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { followViewport } from './follow-viewport.js';
import { useStoreApi, useStudio } from './store-context.js';
import { useColorScheme } from './theme.js';
import { lineChartOptions, UplotChart } from './uplot-chart.js';

export function MetricsPanel() {
  const rows = useStudio(comparisonSelectors.metricRows);
  const measuring = useStudio(comparisonSelectors.measuring);
  if (measuring) return <p className="muted">Measuring on the host: the metrics follow.</p>;
  if (!rows) return <p className="muted">No audio metrics for this comparison (traces only).</p>;
  return (
    <div className="metrics">
      <table aria-label="Metrics">
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} title={r.explain} aria-describedby={`explain-${r.key}`}>
              <th scope="row">{r.label}</th>
              <td>
                {r.value}
                <span id={`explain-${r.key}`} className="visually-hidden">
                  {r.explain}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoudnessChart />
    </div>
  );
}

function LoudnessChart() {
  const store = useStoreApi();
  const curves = useStudio(comparisonSelectors.curves);
  const scheme = useColorScheme();
  const data = useMemo((): uPlot.AlignedData | undefined => {
    if (!curves) return undefined;
    const n = Math.max(curves.shortTermA.length, curves.shortTermB.length);
    const t = Array.from({ length: n }, (_, i) => (i * curves.hopMs) / 1000);
    const clean = (v: number | string | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    return [t, curves.shortTermA.map(clean), curves.shortTermB.map(clean)] as uPlot.AlignedData;
  }, [curves]);
  const make = useCallback((): uPlot.Options => {
    let unfollow: (() => void) | undefined;
    return {
      ...lineChartOptions('seconds', 'LUFS (short-term)', (c) => [
        { label: 't (s)' },
        { label: 'A', stroke: c.a, width: 1.5 },
        { label: 'B', stroke: c.b, width: 1.5 },
      ]),
      // The lanes' time window, so this chart and the timeline show the same seconds.
      hooks: { ready: [(u: uPlot) => (unfollow = followViewport(store, u, (sec) => sec))], destroy: [() => unfollow?.()] },
    };
  }, [scheme, store]);
  if (!data || data[0].length === 0) return <p className="muted">Too short for short-term loudness (3 s windows).</p>;
  return <UplotChart data={data} make={make} height={190} label="Short-term loudness of A and B over time" testId="loudness-chart" />;
}
