import { describe, expect, it } from 'vitest';
import { fmt } from '../../../renderer/src/lib/format.js';
import { hoverReadout } from '../../../renderer/src/lib/hover-readout.js';
import { stepDeltas } from '../../../electron/common/draw/step-delta.js';
import type { Divergence } from '../../../electron/common/forensics/divergence.js';

const rate = 24000;
const a = Float32Array.from({ length: 48000 }, (_, i) => Math.sin(i / 7));
const b = Float32Array.from({ length: 48000 }, (_, i) => 0.8 * Math.sin(i / 7));
const d = a.map((v, i) => v - b[i]);

describe('hover readout', () => {
  it('names the sample under the pointer and A, B and A−B there (the nearest sample to the time)', () => {
    // 1.000788 s × 24000 = 24018.9 → sample 24019.
    const text = hoverReadout(1.000788, 'ab', 0.5, { sampleRate: rate, a, b, d, frameRate: 12.5 });
    expect(text).toBe(`1.000788 s · sample 24019 · A ${fmt(a[24019], 5)} · B ${fmt(b[24019], 5)} · A−B ${fmt(d[24019], 5)} · frame 13`);
  });

  it('on a spectrogram gives frequency (0 Hz at the bottom) and level; on the step lane the step and |Δ|', () => {
    expect(hoverReadout(0.5, 'specA', 0.75, { sampleRate: rate, a, frameRate: 0, spectrogramDb: -42.25 })).toMatch(/ · 3\.00 kHz −42\.3 dB$/);
    const steps = [
      { step: 1, a: { mean: 1, std: 1, min: 0, max: 9, argmax: 0, top5: [] }, b: { mean: 1, std: 1, min: 0, max: 9.019, argmax: 0, top5: [] }, codesA: null, codesB: null, stage: null, maxStatDiff: null },
    ] as Divergence['steps'];
    // Frame 1 spans 0..0.08 s at 12.5 frames/s.
    expect(hoverReadout(0.05, 'steps', 0.5, { sampleRate: 0, frameRate: 12.5, deltas: stepDeltas({ steps }) })).toBe(
      // 9.019 − 9 in float64 is 0.0189999…: four significant digits, never rounded to a 0.
      '0.050000 s · step 1: A mean 1.0000 max 9.0000 · B mean 1.0000 max 9.0190 · talker |Δ| 0.01900',
    );
  });
});
