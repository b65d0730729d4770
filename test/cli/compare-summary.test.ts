import { describe, expect, it } from 'vitest';
import { ComparisonReport } from '../../electron/common/report/comparison-report.js';
import { runParity } from './run-parity.js';

const TEXT = 'Hello world, this is a parity test.';
const env = { SOURCE_DATE_EPOCH: '1700000000' };

describe('parity compare: a within-tolerance verdict says why it is not identical', () => {
  it('eager vs graph: names the largest logit |Δ| with step and field; no "first divergence" table heading', async () => {
    const [text, json] = await Promise.all([
      runParity(['compare', '--text', TEXT, '--a', 'eager', '--b', 'graph'], { env, timeoutMs: 60_000 }),
      runParity(['compare', '--text', TEXT, '--a', 'eager', '--b', 'graph', '--json'], { env, timeoutMs: 60_000 }),
    ]);
    expect(json.status).toBe(0);
    const report = ComparisonReport.parse(JSON.parse(json.stdout));
    expect(report.verdict).toBe('within-tolerance');
    expect(report.divergence.firstStep).toBeNull();
    const big = report.divergence.largestLogitDiff!;
    // The two presets are different ONNX graphs of the same weights: float rounding only, far below 1e-3.
    expect(big.value).toBeGreaterThan(0);
    expect(big.value).toBeLessThanOrEqual(1e-3);
    expect(text.stdout).toContain(`Largest logit |Δ|: ${big.value.toExponential(1)} at step ${big.step} (${big.field}), within 0.001`);
    expect(text.stdout).not.toContain('Steps around the first divergence');
    expect(text.stdout).toContain(`Steps around the largest logit |Δ| (step ${big.step}):`);
  });
});
