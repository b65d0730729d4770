import type { Metrics } from '../../../electron/common/report/metrics.js';
import { fmt } from './format.js';

/** One measurement of the selected region beside the whole take's. */
export interface RegionRow {
  key: string;
  label: string;
  region: string;
  whole: string;
}

const ROWS: { key: string; label: string; value: (m: Metrics) => string }[] = [
  { key: 'correlation', label: 'Correlation (lag 0)', value: (m) => fmt(m.correlation, 4) },
  { key: 'nullDepth', label: 'Null depth', value: (m) => fmt(m.nullDepthDb, 1, ' dB') },
  { key: 'matchedNull', label: 'Matched null', value: (m) => fmt(m.matchedNullDepthDb, 1, ' dB') },
  { key: 'deltaLU', label: 'ΔLoudness', value: (m) => fmt(m.loudnessDeltaLU, 2, ' LU') },
  { key: 'lsd', label: 'LSD', value: (m) => fmt(m.lsdDb, 2, ' dB') },
  { key: 'mcd', label: 'MCD', value: (m) => fmt(m.mcdDb, 2, ' dB') },
  { key: 'peaks', label: 'Peak A / B', value: (m) => `${fmt(m.peakA, 1)} / ${fmt(m.peakB, 1)} dBFS` },
];

/**
 * The region's metrics (compareSignals over the cut, as `parity compare-wav` on the cut files) beside
 * the whole take's, row by row. Integrated loudness gates out blocks under 400 ms, so a shorter region
 * reads n/a there.
 */
export function regionRows(region: Metrics, whole: Metrics | undefined): RegionRow[] {
  return ROWS.map((r) => ({ key: r.key, label: r.label, region: r.value(region), whole: whole ? r.value(whole) : '—' }));
}
