import { describe, expect, it } from 'vitest';
import { localise } from '../../../../electron/common/forensics/localise.js';
import { verdictOf } from '../../../../electron/common/forensics/verdict.js';
import { logitRow, makeStep, makeSteps } from './synthetic-trace.js';

describe('verdictOf', () => {
  it('identical: equal steps and bit-identical audio', () => {
    const a = new Float32Array(100);
    expect(verdictOf(localise(makeSteps(6, 3), makeSteps(6, 3), { audio: { a, b: a, sampleRate: 24000 } }), { bitIdentical: true })).toBe('identical');
  });

  it('equal traces without audio are never identical: the vocoder stage was not checked', () => {
    const d = localise(makeSteps(6, 3), makeSteps(6, 3));
    expect(d.audioCompared).toBe(false);
    expect(verdictOf(d)).toBe('within-tolerance');
  });

  it('within-tolerance: logits moved by 1e-4 (≤ 1e-3), or audio not bit-identical but within audioAbs', () => {
    const b = makeSteps(6, 3);
    b[2] = makeStep(3, 3, logitRow(3).map((x) => x + 1e-4));
    expect(verdictOf(localise(makeSteps(6, 3), b))).toBe('within-tolerance');
    expect(verdictOf(localise(makeSteps(6, 3), makeSteps(6, 3)), { bitIdentical: false })).toBe('within-tolerance');
  });

  it('diverged: a divergent step, or audio differing beyond audioAbs even without a trace', () => {
    const b = makeSteps(6, 3);
    b[4].codes[2] += 1;
    expect(verdictOf(localise(makeSteps(6, 3), b))).toBe('diverged');
    const a = new Float32Array(100);
    const d = localise([], [], { audio: { a, b: a.map((_, i) => (i === 50 ? 0.1 : 0)), sampleRate: 24000 } });
    expect(d.firstDifferingSample).toBe(50);
    expect(verdictOf(d, { bitIdentical: false })).toBe('diverged');
  });
});
