import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareSignals } from '../../../../electron/common/analysis/compare.js';
import { stringifyReport } from '../../../../electron/common/report/json-number.js';
import { regressionCases } from './regression/compare-cases.js';

// Regression values, not reference values: what compareSignals returned for these seeded pairs before
// the issue-29 speed-ups (main at b9f8eaa; regression/compare-cases.ts says how they were written).
const expected = JSON.parse(
  readFileSync(new URL('./regression/compare-regression.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

/**
 * Every number must be what it was to 1e-9 (absolute; the values are dB, LUFS, ratios and sample
 * counts), except where a field names its own tolerance:
 * - xcorrPeak: the peak is now summed exactly in Float64 at the chosen lag; before it was read from a
 *   float32 whole-take FFT (1.3e-7 the largest change seen here): ±1e-6.
 * - fractionalLagSamples: the parabola now goes through exact Float64 sums (2.4e-7 seen): ±1e-5 samples.
 * - gainDb, matchedNullDepthDb: the fractional shift is now a windowed-sinc filter (block-wise) instead
 *   of a whole-take FFT phase shift; both are within −100 dB of the ideal delay (seen: gain 3.3e-7 dB,
 *   null 0.0014 dB on the 10.4-sample delay, whose null the parabola's lag error sets): ±1e-5 dB and
 *   ±0.01 dB.
 */
const TOLERANCE: Record<string, number> = {
  xcorrPeak: 1e-6,
  fractionalLagSamples: 1e-5,
  gainDb: 1e-5,
  matchedNullDepthDb: 0.01,
};

/** Fields added to the metrics after the regression values were written (not speed-up outputs). */
const ADDED_SINCE = new Set(['lagReliable', 'audio']);

function compareTree(path: string, found: unknown, want: unknown, failures: string[]): void {
  const key = path.slice(path.lastIndexOf('.') + 1);
  if (typeof want === 'number' || typeof found === 'number') {
    const tol = TOLERANCE[key] ?? 1e-9;
    const ok =
      typeof found === 'number' &&
      typeof want === 'number' &&
      (Object.is(found, want) || Math.abs(found - want) <= tol);
    if (!ok) failures.push(`${path}: expected ${String(want)} ±${tol}, found ${String(found)}`);
  } else if (Array.isArray(want)) {
    if (!Array.isArray(found) || found.length !== want.length) failures.push(`${path}: length differs`);
    else want.forEach((w, i) => compareTree(`${path}[${i}]`, found[i], w, failures));
  } else if (want && typeof want === 'object') {
    const f = (found ?? {}) as Record<string, unknown>;
    for (const k of new Set([...Object.keys(want), ...Object.keys(f).filter((k) => !ADDED_SINCE.has(k))])) {
      compareTree(`${path}.${k}`, f[k], (want as Record<string, unknown>)[k], failures);
    }
  } else if (found !== want) failures.push(`${path}: expected ${String(want)}, found ${String(found)}`);
}

describe('compareSignals: regression values from before the issue-29 speed-ups', () => {
  for (const c of regressionCases()) {
    it(c.name, async () => {
      const result = await compareSignals(c.a, c.b, c.sampleRate, { maxLagMs: c.maxLagMs });
      // Through JSON as the report writes it, so non-finite numbers compare as the strings they become.
      const found = JSON.parse(stringifyReport(result)) as unknown;
      const failures: string[] = [];
      compareTree(c.name, found, expected[c.name], failures);
      expect(failures).toEqual([]);
    });
  }
});
