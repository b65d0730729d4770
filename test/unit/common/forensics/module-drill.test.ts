import { describe, expect, it } from 'vitest';
import { DEFAULT_MODULE_TOLERANCE, drillModules, stepRanges } from '../../../../electron/common/forensics/module-drill.js';
import { moduleDrillLines } from '../../../../electron/common/report/module-drill-lines.js';
import type { ModuleSidecar, SidecarEntry } from '../../../../electron/common/trace/module-sidecar.js';

interface Out {
  step: number;
  name: string;
  values: number[];
  shape?: number[];
}

/** A sidecar in memory: outputs in execution order per step (seq = order within the step); counts reads. */
function sidecar(file: string, outs: Out[]): ModuleSidecar & { reads: string[] } {
  const seqs = new Map<number, number>();
  const values = new Map<string, number[]>();
  const entries: SidecarEntry[] = outs.map((o) => {
    const seq = seqs.get(o.step) ?? 0;
    seqs.set(o.step, seq + 1);
    const key = `${o.step}/${String(seq).padStart(5, '0')}/${o.name}`;
    values.set(key, o.values);
    return { key, step: o.step, seq, name: o.name, shape: o.shape ?? [o.values.length], begin: 0, end: 0 };
  });
  const reads: string[] = [];
  return { file, entries, reads, read: (e) => (reads.push(e.key), Float32Array.from(values.get(e.key)!)) };
}

const step = (n: number, mlp: number[], extra: Out[] = []): Out[] => [
  { step: n, name: 'embed', values: [1, 2] },
  { step: n, name: 'layers.0.mlp', values: mlp },
  ...extra,
  { step: n, name: 'head', values: [0, 0, 0] },
];

describe('module drill-down (pure)', () => {
  it('names the first module of A’s execution order that differs at the step, reading only that step', () => {
    const a = sidecar('a.s', [...step(1, [1, 1]), ...step(2, [1, 1])]);
    const b = sidecar('b.s', [...step(1, [1, 1]), ...step(2, [1, 1.5])]);
    const d = drillModules(2, a, b);
    expect(d.status).toBe('found');
    expect(d.module).toMatchObject({ name: 'layers.0.mlp', occurrence: 0, seq: { a: 1, b: 1 }, maxAbsDiff: 0.5, differing: 1, nanCount: 0, side: null });
    expect(d.compared).toBe(2);
    expect(a.reads.every((k) => k.startsWith('2/'))).toBe(true);
    expect(d.summary).toBe('step 2: first module whose output differs: layers.0.mlp, max |Δ| 0.5 over 1 element(s)');
  });

  it('pairs repeated calls by occurrence, not by position, when B calls an extra module before', () => {
    const a = sidecar('a', [
      { step: 1, name: 'proj', values: [1] },
      { step: 1, name: 'proj', values: [2] },
    ]);
    const b = sidecar('b', [
      { step: 1, name: 'extra', values: [9] },
      { step: 1, name: 'proj', values: [1] },
      { step: 1, name: 'proj', values: [3] },
    ]);
    const d = drillModules(1, a, b);
    expect(d.module).toMatchObject({ name: 'proj', occurrence: 1, seq: { a: 1, b: 2 }, maxAbsDiff: 1 });
    expect(d.summary).toContain('proj (call 2 of it in the step)');
  });

  it('reports a NaN (on both sides too) even where values are otherwise equal', () => {
    const a = sidecar('a', step(3, [NaN, 1]));
    const b = sidecar('b', step(3, [NaN, 1]));
    const d = drillModules(3, a, b);
    expect(d.module).toMatchObject({ name: 'layers.0.mlp', nanCount: 2, side: 'both', differing: 0 });
    expect(d.summary).toBe('step 3: the NaN first appears in module layers.0.mlp, 2 NaN on side A and B');
    const one = drillModules(3, sidecar('a', step(3, [0, 1])), sidecar('b', step(3, [NaN, 1])));
    expect(one.module).toMatchObject({ side: 'B', nanCount: 1, differing: 1 });
    expect(Number.isNaN(one.module!.maxAbsDiff)).toBe(true);
  });

  it('skips outputs whose shapes differ (named), counts A’s unmatched ones, and goes on', () => {
    const a = sidecar('a', step(1, [1, 2], [{ step: 1, name: 'only.a', values: [5] }, { step: 1, name: 'cache', values: [1, 2], shape: [2] }]));
    const b = sidecar('b', step(1, [1, 2], [{ step: 1, name: 'cache', values: [1, 2, 3], shape: [3] }]).map((o) => (o.name === 'head' ? { ...o, values: [0, 0, 1] } : o)));
    const d = drillModules(1, a, b);
    expect(d).toMatchObject({ status: 'found', compared: 3, skipped: 1, unmatched: 1, shapesDiffer: ['cache (A [2], B [3])'] });
    expect(d.module?.name).toBe('head');
  });

  it('applies |Δ| ≤ abs + rel·max(|a|, |b|): the default lets 1e-4 relative through on large values, not beyond', () => {
    // 1000 vs 1000.05: |Δ| 0.05 ≤ 1e-4 + 1e-4·1000.05 = 0.1001 (matches); 1000 vs 1000.2 does not.
    expect(DEFAULT_MODULE_TOLERANCE).toEqual({ abs: 1e-4, rel: 1e-4 });
    const within = drillModules(1, sidecar('a', [{ step: 1, name: 'm', values: [1000] }]), sidecar('b', [{ step: 1, name: 'm', values: [1000.05] }]));
    expect(within.status).toBe('nothing-differs');
    expect(within.summary).toBe('step 1: no module output differs: all 1 compared outputs match within |Δ| ≤ 0.0001 + 0.0001·|x|');
    const beyond = drillModules(1, sidecar('a', [{ step: 1, name: 'm', values: [1000] }]), sidecar('b', [{ step: 1, name: 'm', values: [1000.2] }]));
    expect(beyond.status).toBe('found');
    const strict = drillModules(1, sidecar('a', [{ step: 1, name: 'm', values: [1000] }]), sidecar('b', [{ step: 1, name: 'm', values: [1000.05] }]), { abs: 1e-4, rel: 0 });
    expect(strict.status).toBe('found');
  });

  it('says which steps each side holds when the divergent step was not recorded', () => {
    const a = sidecar('a', [...step(1, [1]), ...step(2, [1]), ...step(3, [1]), ...step(6, [1])]);
    const b = sidecar('b', step(1, [1]));
    const d = drillModules(6, a, b);
    expect(d).toMatchObject({ status: 'not-recorded', module: null, recordedSteps: { a: '1-3, 6', b: '1' } });
    expect(moduleDrillLines(d)).toEqual([`Module drill-down: step 6: not in both sidecars (A holds steps 1-3, 6, B holds steps 1); record it (ModuleRecorder steps=) to see inside it`]);
    expect(stepRanges([])).toBe('none');
  });

  it('has nothing to do without a divergent step', () => {
    const d = drillModules(null, sidecar('a', step(1, [1])), sidecar('b', step(1, [2])));
    expect(d).toMatchObject({ status: 'no-divergence', step: null, module: null, compared: 0 });
  });

  it('lines: summary, sidecars, the module’s statistics with its shape, tolerance and counts', () => {
    const d = drillModules(2, sidecar('a.s', step(2, [1, -1])), sidecar('b.s', step(2, [1.5, -1])));
    expect(moduleDrillLines(d)).toEqual([
      'Module drill-down: step 2: first module whose output differs: layers.0.mlp, max |Δ| 0.5 over 1 element(s)',
      '  sidecars: A a.s, B b.s',
      '  module layers.0.mlp [2]: A [-1, 1] mean 0 NaN 0; B [-1, 1.5] mean 0.25 NaN 0',
      '  tolerance |Δ| ≤ 0.0001 + 0.0001·|x| per element; 2 module outputs compared, 0 skipped (shapes differ), 0 of A without a counterpart in B',
    ]);
  });
});
