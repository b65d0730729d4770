import { describe, expect, it } from 'vitest';
import { compareSignals } from '../../../../../electron/common/analysis/compare.js';
import { alignedRows, metricRows } from '../../../../../electron/common/report/format/metric-rows.js';
import type { Metrics } from '../../../../../electron/common/report/metrics.js';
import { regionRows } from '../../../../../renderer/src/lib/region-rows.js';
import { comparisonSelectors } from '../../../../../renderer/src/store/comparison/comparison-selectors.js';
import type { StudioState } from '../../../../../renderer/src/store/studio-store.js';

// Issue 40: a metric of a degenerate take, wherever it is printed (the terminal's and report.md/html's
// metricRows, the studio's metrics panel, its region rows), is never a bare NaN, n/a, ∞ or −∞ that only comes
// from the take being silent, constant or non-finite: a comparison metric says why instead. A value of one
// take (peak, RMS, loudness) keeps −∞ where it is the truth for silence. The metrics come from compareSignals
// on the signals themselves, so every value these rows see is the one the CLI and the studio get.
const RATE = 24000;
const tone = () => Float32Array.from({ length: RATE }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 220 * i) / RATE));
const state = (metrics: Metrics) => ({ comparison: { historyId: 'x', report: { verdict: 'degenerate-audio', metrics } } }) as unknown as StudioState;
const PER_TAKE = /^(Loudness|Sample peak|RMS|Peak|Length)/;
const BARE = /\bNaN\b(?!\/Inf)|\bn\/a\b|∞/;

describe('metrics of degenerate takes, on every surface', () => {
  const cases: [string, Float32Array, Float32Array, string][] = [
    ['both silent', new Float32Array(RATE), new Float32Array(RATE), 'not measurable: A is digital silence, B is digital silence'],
    ['A silent, B a tone', new Float32Array(RATE), tone(), 'not measurable: A is digital silence'],
    ['both constant', new Float32Array(RATE).fill(0.1), new Float32Array(RATE).fill(0.1), 'not measurable: A is a constant 0.1 (no signal), B is a constant 0.1 (no signal)'],
    ['A NaN', new Float32Array(RATE).fill(NaN), tone(), 'not measurable: A holds 24000 NaN/Inf samples'],
  ];
  for (const [name, a, b, words] of cases) {
    it(`${name}: null depth and every non-finite comparison metric say "${words}"`, async () => {
      const { metrics } = await compareSignals(a, b, RATE);
      const cli = [...metricRows(metrics), ...alignedRows(metrics)].map(([label, value]) => ({ label, value }));
      const studio = comparisonSelectors.metricRows(state(metrics))!;
      const region = regionRows(metrics, metrics).flatMap((r) => [
        { label: r.label, value: r.region },
        { label: r.label, value: r.whole },
      ]);
      for (const [surface, rows] of [['CLI', cli], ['studio', studio], ['region', region]] as const) {
        expect(rows.find((r) => r.label === 'Null depth')?.value, `${surface} null depth`).toBe(words);
        for (const r of rows) if (!PER_TAKE.test(r.label)) expect(`${surface} ${r.label}: ${r.value}`).not.toMatch(BARE);
        for (const r of rows) expect(`${surface} ${r.label}: ${r.value}`).not.toMatch(/\bNaN\b(?!\/Inf)|\bn\/a\b/);
      }
    });
  }

  it('a silent take keeps its −∞ dBFS peak (the truth), and audible identical takes keep null depth −∞ dB', async () => {
    const { metrics: silent } = await compareSignals(new Float32Array(RATE), tone(), RATE);
    expect(metricRows(silent).find(([label]) => label === 'Sample peak A / B')?.[1]).toMatch(/^−∞ \/ -10\.\d\d dBFS$/);
    expect(comparisonSelectors.metricRows(state(silent))!.find((r) => r.key === 'peaks')?.value).toMatch(/^−∞ \/ −10\.\d\d dBFS$/);
    const a = tone();
    const { metrics: same } = await compareSignals(a, a.slice(), RATE);
    expect(metricRows(same).find(([label]) => label === 'Null depth')?.[1]).toBe('−∞ dB');
    expect(comparisonSelectors.metricRows(state(same))!.find((r) => r.key === 'nullDepth')?.value).toBe('−∞ dB');
    expect(regionRows(same, same).find((r) => r.key === 'nullDepth')?.region).toBe('−∞ dB');
  });
});
