import { describe, expect, it } from 'vitest';
import type { ComparisonResult, ImportTracesRequest } from '../../../electron/common/api/comparison.js';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import type { StudioEvents } from '../../../electron/common/api/events.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { ModuleDrillReport } from '../../../electron/common/report/module-drill.js';
import { drillSelectors } from '../../../renderer/src/store/drill/drill-selectors.js';
import { classifyImport } from '../../../renderer/src/store/history/classify-import.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

const file = (name: string, text = 'x') => ({ name, bytes: new TextEncoder().encode(text) });
const trace = (name: string, modules?: string) => file(name, JSON.stringify({ schema: 'tts-parity-trace/1', engine: 'e', q: 1, frameRate: 12.5, sampleRate: 24000, ...(modules ? { modules } : {}) }) + '\n');

const moduleDrill: ModuleDrillReport = {
  status: 'found',
  step: 5,
  sidecars: { a: 'a.modules.safetensors', b: 'b.modules.safetensors' },
  tolerance: { abs: 1e-4, rel: 1e-4 },
  module: { name: 'layers.0.mlp', occurrence: 0, seq: { a: 1, b: 1 }, maxAbsDiff: 0.279, differing: 32, nanCount: 0, side: null, a: { shape: [1, 32], min: -0.5, max: 0.3, mean: 0, nan: 0, inf: 0 }, b: { shape: [1, 32], min: -0.8, max: 0.5, mean: 0, nan: 0, inf: 0 } },
  compared: 2,
  skipped: 0,
  unmatched: 0,
  summary: 'step 5: first module whose output differs: layers.0.mlp, max |Δ| 0.279 over 32 element(s)',
};

describe('importing traces with their module sidecars', () => {
  it('pairs each sidecar with the trace whose header names it, in any order', () => {
    const plan = classifyImport([file('run/y.safetensors'), trace('ref.jsonl', 'x.safetensors'), file('x.safetensors'), trace('new.jsonl', 'sub/y.safetensors')]);
    expect(plan).toMatchObject({ ok: true, kind: 'traces', a: { name: 'ref.jsonl' }, modulesA: { name: 'x.safetensors' }, modulesB: { name: 'run/y.safetensors' } });
  });

  it('pairs by <trace stem>.modules.safetensors without a header field, else in the order given', () => {
    expect(classifyImport([file('b.modules.safetensors'), file('a.modules.safetensors'), trace('a.jsonl'), trace('b.jsonl')])).toMatchObject({ modulesA: { name: 'a.modules.safetensors' }, modulesB: { name: 'b.modules.safetensors' } });
    expect(classifyImport([file('p.safetensors'), file('q.safetensors'), trace('a.jsonl'), trace('b.jsonl')])).toMatchObject({ modulesA: { name: 'p.safetensors' }, modulesB: { name: 'q.safetensors' } });
  });

  it('takes one sidecar, as the CLI does, with the trace it belongs to (the host warns that the other side has none)', () => {
    expect(classifyImport([file('a.safetensors'), trace('a.jsonl'), trace('b.jsonl')])).toMatchObject({ ok: true, kind: 'traces', modulesA: { name: 'a.safetensors' } });
    const toB = classifyImport([file('b.modules.safetensors'), trace('a.jsonl'), trace('b.jsonl')]);
    expect(toB).toMatchObject({ ok: true, kind: 'traces', modulesB: { name: 'b.modules.safetensors' } });
    expect(toB).not.toHaveProperty('modulesA');
  });

  it('refuses sidecars without two traces, or more than one a trace, with the counts and how to fix it', () => {
    const alone = classifyImport([file('a.safetensors'), file('b.safetensors')]);
    expect(alone).toMatchObject({ ok: false, message: expect.stringContaining('got 2 sidecar(s) and 0 trace file(s)'), hint: expect.stringMatching(/^Pick the two traces together with their sidecars/) });
    expect(classifyImport([file('a.safetensors'), file('b.safetensors'), file('c.safetensors'), trace('a.jsonl'), trace('b.jsonl')])).toMatchObject({ ok: false, message: expect.stringContaining('got 3 sidecar(s) and 2 trace file(s)') });
  });

  it('sends the sidecars with the traces, and the drill panel shows the report’s module lines', async () => {
    const sent: ImportTracesRequest[] = [];
    const result = { historyId: '20260101-120000-abcdef', report: { kind: 'traces', verdict: 'diverged', divergence: { firstStep: 5 }, moduleDrill } } as unknown as ComparisonResult;
    const studio = {
      on: new TypedEmitter<StudioEvents>().on,
      importTraces: async (request: ImportTracesRequest) => (sent.push(request), result),
      listHistory: async () => ({ entries: [] }),
    } as unknown as StudioApi;
    const store = createStudioStore(studio);
    await store.getState().importFiles([trace('a.jsonl'), trace('b.jsonl'), file('a.modules.safetensors'), file('b.modules.safetensors')]);
    expect(sent[0]).toMatchObject({ modulesA: { name: 'a.modules.safetensors' }, modulesB: { name: 'b.modules.safetensors' } });
    expect(drillSelectors.canDrill(store.getState())).toBe(false);
    expect(drillSelectors.moduleLines(store.getState())).toEqual([
      'Module drill-down: step 5: first module whose output differs: layers.0.mlp, max |Δ| 0.279 over 32 element(s)',
      '  sidecars: A a.modules.safetensors, B b.modules.safetensors',
      '  module layers.0.mlp [1, 32]: A [-0.5, 0.3] mean 0 NaN 0; B [-0.8, 0.5] mean 0 NaN 0',
      '  tolerance |Δ| ≤ 0.0001 + 0.0001·|x| per element; 2 module outputs compared, 0 skipped (shapes differ), 0 of A without a counterpart in B',
    ]);
  });
});
