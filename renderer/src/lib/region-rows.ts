import { degenerateFormats, type Format } from '../../../electron/common/report/format/degenerate-values.js';
import type { Metrics } from '../../../electron/common/report/metrics.js';
import { fmt as plainFmt } from './format.js';

/** One measurement of the selected region beside the whole take's. */
export interface RegionRow {
  key: string;
  label: string;
  region: string;
  whole: string;
}

type Value = number | string | undefined;
/** `fmt` for a metric of A against B, `take` for a value of one take (degenerate-values.ts). */
interface Formats {
  fmt: Format<Value>;
  take: Format<Value>;
}

const ROWS: { key: string; label: string; value: (m: Metrics, f: Formats) => string }[] = [
  { key: 'correlation', label: 'Correlation (lag 0)', value: (m, { fmt }) => fmt(m.correlation, 4) },
  { key: 'nullDepth', label: 'Null depth', value: (m, { fmt }) => fmt(m.nullDepthDb, 1, ' dB') },
  { key: 'matchedNull', label: 'Matched null', value: (m, { fmt }) => fmt(m.matchedNullDepthDb, 1, ' dB') },
  { key: 'deltaLU', label: 'ΔLoudness', value: (m, { fmt }) => fmt(m.loudnessDeltaLU, 2, ' LU') },
  { key: 'lsd', label: 'LSD', value: (m, { fmt }) => fmt(m.lsdDb, 2, ' dB') },
  { key: 'mcd', label: 'MCD', value: (m, { fmt }) => fmt(m.mcdDb, 2, ' dB') },
  { key: 'peaks', label: 'Peak A / B', value: (m, { take }) => `${take(m.peakA, 1)} / ${take(m.peakB, 1)} dBFS` },
];

const toNumber = (v: Value): number => (typeof v === 'string' ? Number(v) : (v ?? NaN));

/** Each take's metrics written as the metrics panel writes them: why, not NaN or ±∞, where a take is degenerate. */
function formats(m: Metrics): Formats {
  const f = degenerateFormats<Value>(m.audio, plainFmt, toNumber);
  return { fmt: f.compared, take: f.perTake };
}

/**
 * The region's metrics (compareSignals over the cut, as `parity compare-wav` on the cut files) beside
 * the whole take's, row by row. Integrated loudness gates out blocks under 400 ms, so a shorter region
 * reads n/a there.
 */
export function regionRows(region: Metrics, whole: Metrics | undefined): RegionRow[] {
  const inRegion = formats(region);
  const inWhole = whole && formats(whole);
  return ROWS.map((r) => ({ key: r.key, label: r.label, region: r.value(region, inRegion), whole: whole && inWhole ? r.value(whole, inWhole) : '—' }));
}
