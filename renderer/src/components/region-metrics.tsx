import { useEffect, useState } from 'react';
import { compareSignals } from '../../../electron/common/analysis/compare.js';
import type { Metrics } from '../../../electron/common/report/metrics.js';
import { loadFft } from '../lib/fft-loader.js';
import { fmtTime } from '../lib/format.js';
import { PFFFT_WASM_URL } from '../lib/pffft-wasm-url.js';
import { regionRows } from '../lib/region-rows.js';
import { comparisonSelectors } from '../store/comparison/comparison-selectors.js';
import { playbackSelectors } from '../store/playback/playback-selectors.js';
import { useStudio } from './store-context.js';

/** Under this many samples a region is not measured (a cross-correlation and a spectral frame need some). */
const MIN_SAMPLES = 1024;

/**
 * Selection = measurement: the selected region of A and B measured as `parity compare-wav` measures two
 * files (common/analysis compareSignals on the cut), beside the whole take's values.
 */
export function RegionMetrics() {
  const comparison = useStudio(comparisonSelectors.comparison);
  const loop = useStudio(playbackSelectors.loop);
  const [result, setResult] = useState<{ key: string; metrics?: Metrics; error?: string }>();
  const a = comparison?.a;
  const b = comparison?.b;
  const rate = a?.sampleRate ?? 0;
  const from = loop ? Math.max(0, Math.round(loop.start * rate)) : 0;
  const to = loop && a && b ? Math.min(a.samples.length, b.samples.length, Math.round(loop.end * rate)) : 0;
  const key = `${comparison?.historyId}:${from}:${to}`;
  useEffect(() => {
    if (!a || !b || to - from < MIN_SAMPLES) return;
    let live = true;
    // After the drag settles: a region being dragged changes every frame.
    const timer = setTimeout(() => {
      loadFft(PFFFT_WASM_URL)
        .then(() => compareSignals(a.samples.slice(from, to), b.samples.slice(from, to), rate))
        .then(
          ({ metrics }) => live && setResult({ key, metrics }),
          (error: unknown) => live && setResult({ key, error: (error as Error).message }),
        );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [a, b, from, to, rate, key]);
  if (!loop || !a || !b) return null;
  if (to - from < MIN_SAMPLES) return <p className="muted small-text">Select at least {MIN_SAMPLES} samples to measure the region.</p>;
  const current = result?.key === key ? result : undefined;
  const whole = comparison?.report.metrics as Metrics | undefined;
  return (
    <div className="region-metrics" data-testid="region-metrics" data-from={from} data-to={to}>
      <h3>
        Region {fmtTime(from / rate)}–{fmtTime(to / rate)} <span className="muted">(samples {from}–{to}, as parity compare-wav on the cut)</span>
      </h3>
      {current?.error && <p className="error">Not measured: {current.error}</p>}
      {!current && <p className="muted">Measuring…</p>}
      {current?.metrics && (
        <table aria-label="Region metrics">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Region</th>
              <th scope="col">Whole take</th>
            </tr>
          </thead>
          <tbody>
            {regionRows(current.metrics, whole).map((r) => (
              <tr key={r.key} data-key={r.key}>
                <th scope="row">{r.label}</th>
                <td>{r.region}</td>
                <td className="muted">{r.whole}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
