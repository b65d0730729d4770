import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonResult } from '../../../electron/common/api/index.js';
import { GREEDY } from '../../../electron/common/sampling/types.js';
import { checkFixture, EngineCache } from '../../../electron/engine/comparison/check-fixture.js';
import { compareProfiles, type ProfileComparison } from '../../../electron/engine/comparison/compare-profiles.js';
import { traceText } from '../../../electron/engine/comparison/comparison-files.js';
import { sealReport } from '../../../electron/engine/comparison/fixture-integrity.js';
import { DEFAULT_DRILL_TOLERANCE, drillDivergence } from '../../../electron/engine/drill/drill-step.js';
import { Engine, resolveDemoBundle } from '../../../electron/engine/engine.js';
import { exportFixture } from '../../../electron/host/export-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'export-gate-'));
const engines = new EngineCache();
let engine: Engine;
let c: ProfileComparison;
let entry: ComparisonResult;
const request = { text: 'Hello there.', profileA: 'graph', profileB: 'graph,fault=stale-feedback@2', seed: 0, sampling: GREEDY };
const abx = { seed: 7, trials: [], correct: 0, pGuess: 1, savedAt: '2023-11-14T22:20:00.000Z' };

beforeAll(async () => {
  engine = await Engine.open(await resolveDemoBundle());
  c = await compareProfiles(engine, { ...request, bundle: 'demo' }, { createdAt: '2023-11-14T22:13:20.000Z' });
  // The studio's drill (drill-task.ts): default tolerance, at the step and stage the localiser found.
  const drill = await drillDivergence(engine, { ...request, tolerance: DEFAULT_DRILL_TOLERANCE }, c.report.divergence);
  const audio = (r: typeof c.resultA) => ({ sampleRate: r.sampleRate, samples: r.audio });
  entry = { historyId: '20231114-221320-abcdef', report: c.report, a: audio(c.resultA), b: audio(c.resultB), drill, abx } as ComparisonResult;
});
afterAll(async () => {
  await engines.close();
  await engine?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a studio export is a fixture parity gate re-runs', () => {
  it('carries the traces, the drill in report.json, abx.json, a seal over all of them, and passes the gate', async () => {
    const out = join(root, 'with-drill');
    await exportFixture(entry, out, false);
    expect(readdirSync(out).sort()).toEqual(['a.jsonl', 'a.wav', 'abx.json', 'b.jsonl', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png', 'steps.png']);
    // The traces are byte for byte what `parity compare --out` writes for the same renderings.
    expect(readFileSync(join(out, 'a.jsonl'), 'utf8')).toBe(traceText(c.resultA, c.report.a.frameRate, request.text));
    expect(readFileSync(join(out, 'b.jsonl'), 'utf8')).toBe(traceText(c.resultB, c.report.b.frameRate, request.text));
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.drill.step).toBe(2);
    expect(report.rerun.drill).toEqual({});
    expect(Object.keys(report.integrity.files).sort()).toEqual(['a.jsonl', 'a.wav', 'abx.json', 'b.jsonl', 'b.wav', 'diff.wav', 'report.md']);
    expect(JSON.parse(readFileSync(join(out, 'abx.json'), 'utf8'))).toEqual(abx);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('inputs_embeds');
    const check = await checkFixture(out, engines);
    expect(check.problems).toEqual([]);
    expect(check.ok).toBe(true);
  }, 60_000);

  it('a teacher-forced comparison exports B\'s trace with its teacherForced header, as parity compare --out writes it', async () => {
    const forcedRequest = { ...request, profileB: 'graph,precision=fp16', teacherForce: true };
    const forced = await compareProfiles(engine, { ...forcedRequest, bundle: 'demo' }, { createdAt: '2023-11-14T22:13:20.000Z' });
    const audio = (r: typeof forced.resultA) => ({ sampleRate: r.sampleRate, samples: r.audio });
    const forcedEntry = { historyId: '20231114-221320-abcdef', report: forced.report, a: audio(forced.resultA), b: audio(forced.resultB) } as ComparisonResult;
    const out = join(root, 'teacher-forced');
    await exportFixture(forcedEntry, out, false);
    const bTrace = readFileSync(join(out, 'b.jsonl'), 'utf8');
    expect(JSON.parse(bTrace.split('\n')[0]).teacherForced).toBe('A: graph');
    expect(bTrace).toBe(traceText(forced.resultB, forced.report.b.frameRate, request.text, 'A: graph'));
    expect(readFileSync(join(out, 'a.jsonl'), 'utf8')).toBe(traceText(forced.resultA, forced.report.a.frameRate, request.text));
  }, 60_000);

  it('the gate re-runs the exported drill: a different recorded finding fails it', async () => {
    const out = join(root, 'drill-edited');
    await exportFixture(entry, out, false);
    const files = Object.fromEntries(readdirSync(out).filter((n) => n !== 'report.json').map((n) => [n, new Uint8Array(readFileSync(join(out, n)))]));
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Record<string, { node: { name: string } }>;
    report.drill.node.name = 'layers.3.mlp.down';
    // Resealed, so only the re-run can notice.
    writeFileSync(join(out, 'report.json'), sealReport(report, files));
    const check = await checkFixture(out, engines);
    expect(check.ok).toBe(false);
    expect(check.problems.join('\n')).toMatch(/^drill: recorded .*node layers\.3\.mlp\.down, now .*node layers\.0\.input_layernorm\.square/);
  }, 60_000);

  it('an edited abx.json fails the gate by name; without ABX or drill there is no abx.json and no drill', async () => {
    const out = join(root, 'abx-edited');
    await exportFixture(entry, out, false);
    writeFileSync(join(out, 'abx.json'), JSON.stringify({ ...abx, correct: 9 }));
    expect((await checkFixture(out, engines)).problems).toEqual([expect.stringMatching(/^abx\.json was changed after it was written/)]);
    const plain = join(root, 'plain');
    await exportFixture({ ...entry, abx: undefined, drill: undefined }, plain, false);
    expect(readdirSync(plain)).not.toContain('abx.json');
    expect(JSON.parse(readFileSync(join(plain, 'report.json'), 'utf8')).drill).toBeUndefined();
    expect((await checkFixture(plain, engines)).ok).toBe(true);
  }, 60_000);
});
