import { describe, expect, it } from 'vitest';
import { Sampler, sampleToken } from '../../../../electron/common/sampling/sample-token.js';
import { GREEDY, type SamplingParams } from '../../../../electron/common/sampling/types.js';
import { uniform } from '../../../../electron/common/sampling/uniform.js';

const sample = (over: Partial<SamplingParams>): SamplingParams => ({ ...GREEDY, mode: 'sample', ...over });

/** Independent reference: full sort, the way HF's processors are usually written, then the same draw rule. */
function reference(logits: number[], p: SamplingParams, u: number, history: number[] = []): number {
  const v = logits.slice();
  for (const id of new Set(history)) v[id] = v[id] > 0 ? v[id] / p.repetitionPenalty : v[id] * p.repetitionPenalty;
  const nan = v.findIndex((x) => Number.isNaN(x));
  if (nan >= 0) return nan;
  const order = v.map((_, i) => i).sort((a, b) => v[b] - v[a] || a - b);
  if (p.mode === 'greedy') return order[0];
  const scaled = v.map((x) => x / p.temperature);
  const max = scaled[order[0]];
  let kept = p.topK > 0 ? order.slice(0, p.topK) : order;
  if (p.topP < 1) {
    const total = kept.reduce((s, i) => s + Math.exp(scaled[i] - max), 0);
    let c = 0;
    const nucleus: number[] = [];
    for (const i of kept) {
      nucleus.push(i);
      c += Math.exp(scaled[i] - max);
      if (c >= p.topP * total) break;
    }
    kept = nucleus;
  }
  const ids = kept.slice().sort((a, b) => a - b);
  const total = ids.reduce((s, i) => s + Math.exp(scaled[i] - max), 0);
  let c = 0;
  for (const i of ids) {
    c += Math.exp(scaled[i] - max);
    if (c > u * total) return i;
  }
  return ids[ids.length - 1];
}

describe('sampleToken', () => {
  it('greedy takes the argmax, the lowest id on ties', () => {
    expect(sampleToken(Float32Array.from([0.1, 3, -2, 3, 1]), GREEDY, 0.99)).toBe(1);
  });

  it('returns the first NaN id in both modes (as torch.argmax)', () => {
    const l = Float32Array.from([1, NaN, 5, NaN]);
    expect(sampleToken(l, GREEDY, 0)).toBe(1);
    expect(sampleToken(l, sample({ temperature: 0.7 }), 0.5)).toBe(1);
  });

  it('applies the CTRL repetition penalty once per distinct id: divides positive, multiplies negative', () => {
    // 2 / 1.5 = 1.33 < 1.9, so id 0 loses to id 1.
    expect(sampleToken(Float32Array.from([2, 1.9, -5]), { ...GREEDY, repetitionPenalty: 1.5 }, 0, [0, 0, 0])).toBe(1);
    // Negative: -1 · 1.5 = -1.5 still beats -1.6 (applied twice it would be -2.25 and lose), but loses to -1.4.
    expect(sampleToken(Float32Array.from([-1, -1.6, -5]), { ...GREEDY, repetitionPenalty: 1.5 }, 0, [0, 0])).toBe(0);
    expect(sampleToken(Float32Array.from([-1, -1.4, -5]), { ...GREEDY, repetitionPenalty: 1.5 }, 0, [0])).toBe(1);
  });

  it('with top-k = 1 is greedy for every draw', () => {
    const l = Float32Array.from([0.5, 2.5, 2.4, -1]);
    for (const u of [0, 0.3, 0.999999]) expect(sampleToken(l, sample({ topK: 1 }), u)).toBe(1);
  });

  it('maps stratified draws onto exactly the softmax(logits / T) probabilities', () => {
    const logits = Float32Array.from([1, 0, -1, 2]);
    const T = 0.8;
    const z = [...logits].map((x) => Math.exp(x / T));
    const sum = z.reduce((a, b) => a + b);
    const n = 10000;
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < n; i++) counts[sampleToken(logits, sample({ temperature: T }), (i + 0.5) / n)]++;
    // Inverse CDF with n evenly spaced draws: each count is within 1 of n·p.
    counts.forEach((c, i) => expect(Math.abs(c - (n * z[i]) / sum)).toBeLessThanOrEqual(1));
  });

  it('agrees exactly with a sort-based reference on 2 000 random cases (top-k, top-p, penalty, T, ties)', () => {
    const s = new Sampler();
    for (let t = 0; t < 2000; t++) {
      const v = 2 + Math.floor(uniform(1, t, 0) * 300);
      const logits = new Float32Array(v);
      // Quantised to 1/4 so ties are common.
      for (let i = 0; i < v; i++) logits[i] = Math.round((uniform(2, t, i) * 20 - 10) * 4) / 4;
      const params: SamplingParams = {
        mode: uniform(3, t, 0) < 0.1 ? 'greedy' : 'sample',
        temperature: 0.3 + uniform(3, t, 1) * 1.5,
        topK: uniform(3, t, 2) < 0.3 ? 0 : 1 + Math.floor(uniform(3, t, 3) * v),
        topP: uniform(3, t, 4) < 0.3 ? 1 : 0.05 + uniform(3, t, 5) * 0.95,
        repetitionPenalty: uniform(3, t, 6) < 0.5 ? 1 : 1 + uniform(3, t, 7),
      };
      const history = Array.from({ length: 5 }, (_, i) => Math.floor(uniform(4, t, i) * v));
      const u = uniform(5, t, 0);
      const ref = reference(Array.from(logits), params, u, params.repetitionPenalty === 1 ? [] : history);
      expect(s.sample(logits, params, u, history)).toBe(ref);
    }
  });

  it('refuses bad settings with a message naming the field', () => {
    const l = Float32Array.from([1, 2]);
    expect(() => sampleToken(l, sample({ temperature: 0 }), 0.5)).toThrow(/temperature must be/);
    expect(() => sampleToken(l, sample({ topP: 0 }), 0.5)).toThrow(/topP must be in \(0, 1\]/);
    expect(() => sampleToken(l, sample({ topK: -1 }), 0.5)).toThrow(/topK must be/);
    expect(() => sampleToken(l, sample({}), 1)).toThrow(/draw must be in \[0, 1\)/);
    expect(() => sampleToken(new Float32Array(0), GREEDY, 0)).toThrow(/empty logits/);
  });
});
