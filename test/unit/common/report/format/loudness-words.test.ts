import { describe, expect, it } from 'vitest';
import { compareSignals } from '../../../../../electron/common/analysis/compare.js';
import { initFft } from '../../../../../electron/common/analysis/fft.js';
import { metricRows } from '../../../../../electron/common/report/format/metric-rows.js';

const RATE = 24000;

function sine(seconds: number, amplitude: number): Float32Array {
  const x = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < x.length; i++) x[i] = amplitude * Math.sin((2 * Math.PI * 440 * i) / RATE);
  return x;
}

async function loudnessRows(a: Float32Array, b: Float32Array): Promise<string[]> {
  await initFft();
  const { metrics } = await compareSignals(a, b, RATE);
  return metricRows(metrics)
    .filter(([label]) => label.startsWith('Loudness'))
    .map(([label, value]) => `${label}: ${value}`);
}

describe('a loudness of −∞ says why, and B−A is not reported as NaN or ±∞ LU', () => {
  it('a take under one 400 ms block (0.35 s of a loud tone) has no gated loudness, not silence', async () => {
    expect(await loudnessRows(sine(0.35, 0.5), sine(0.41, 0.5))).toEqual([
      'Loudness A (all channels, BS.1770): \u2212∞ LUFS (shorter than one 400 ms block)',
      'Loudness B (all channels, BS.1770): -9.67 LUFS',
      'Loudness B−A: not measured: A has no gated loudness',
    ]);
  });

  it('digital silence: every block under the absolute gate, on both sides', async () => {
    const rows = await loudnessRows(new Float32Array(RATE), new Float32Array(RATE));
    expect(rows[0]).toBe('Loudness A (all channels, BS.1770): \u2212∞ LUFS (every 400 ms block under the −70 LUFS gate)');
    expect(rows[2]).toBe('Loudness B−A: not measured: A and B have no gated loudness');
  });

  it('measured takes keep the plain numbers', async () => {
    expect(await loudnessRows(sine(0.41, 0.5), sine(0.41, 0.5))).toEqual([
      'Loudness A (all channels, BS.1770): -9.67 LUFS',
      'Loudness B (all channels, BS.1770): -9.67 LUFS',
      'Loudness B−A: 0.00 LU',
    ]);
  });
});
