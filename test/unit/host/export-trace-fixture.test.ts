import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';
import { GREEDY } from '../../../electron/common/sampling/types.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { checkFixture, EngineCache } from '../../../electron/engine/comparison/check-fixture.js';
import { compareProfiles } from '../../../electron/engine/comparison/compare-profiles.js';
import { traceText } from '../../../electron/engine/comparison/comparison-files.js';
import { Engine, resolveDemoBundle } from '../../../electron/engine/engine.js';
import { MAX_KEPT_TRACE_BYTES } from '../../../electron/host/history-store.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

const root = mkdtempSync(join(tmpdir(), 'export-traces-'));
const engines = new EngineCache();
let host: StudioHost;
let studio: StudioApi;
let traces: { a: string; b: string };
let wavs: { a: Uint8Array; b: Uint8Array };

beforeAll(async () => {
  ensureBuilt();
  // Two traces from another "engine" (here our own, with a fault in B so they part at step 2), and
  // their audio as 16-bit stereo WAVs, so the import reads, mixes down and converts as it would a real run.
  const engine = await Engine.open(await resolveDemoBundle());
  const text = 'Hello there.';
  const c = await compareProfiles(engine, { text, profileA: 'graph', profileB: 'graph,fault=stale-feedback@2', seed: 0, sampling: GREEDY, bundle: 'demo' }, { createdAt: '2023-11-14T22:13:20.000Z' });
  await engine.close();
  traces = { a: traceText(c.resultA, c.report.a.frameRate, text), b: traceText(c.resultB, c.report.b.frameRate, text) };
  wavs = { a: encodeWav([c.resultA.audio, c.resultA.audio], c.resultA.sampleRate, 'pcm16'), b: encodeWav([c.resultB.audio, c.resultB.audio], c.resultB.sampleRate, 'pcm16') };
  host = new StudioHost({ dataDir: join(root, 'data') });
  studio = createDirectClient(host);
}, 60_000);
afterAll(async () => {
  await host?.dispose();
  await engines.close();
  rmSync(root, { recursive: true, force: true });
});

describe('an exported trace import is a fixture parity gate re-checks', () => {
  it('keeps the traces with the entry, exports them sealed, passes checkFixture, and an edited a.jsonl fails it by name', async () => {
    const imported = await studio.importTraces({
      a: { name: 'vllm-a.jsonl', text: traces.a },
      b: { name: 'vllm-b.jsonl', text: traces.b },
      wavA: { name: 'a.wav', bytes: wavs.a },
      wavB: { name: 'b.wav', bytes: wavs.b },
    });
    const kept = join(root, 'data', 'history', imported.historyId);
    expect(readFileSync(join(kept, 'a.jsonl'), 'utf8')).toBe(traces.a);
    expect(readFileSync(join(kept, 'b.jsonl'), 'utf8')).toBe(traces.b);

    const out = join(root, 'export');
    const exported = await studio.exportFixture({ id: imported.historyId, dir: out });
    // The files `parity compare-trace --out` writes with --wav-a/--wav-b.
    expect(exported.files).toEqual(['a.jsonl', 'a.wav', 'b.jsonl', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png', 'steps.png']);
    expect(readFileSync(join(out, 'a.jsonl'), 'utf8')).toBe(traces.a);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.kind).toBe('traces');
    expect(Object.keys(report.integrity.files).sort()).toEqual(['a.jsonl', 'a.wav', 'b.jsonl', 'b.wav', 'diff.wav', 'report.md']);

    const check = await checkFixture(out, engines);
    expect(check.problems).toEqual([]);
    expect(check.ok).toBe(true);
    expect(check.summary).toMatch(/^traces vllm-a\.jsonl vs vllm-b\.jsonl: recorded diverged at step 2/);

    writeFileSync(join(out, 'a.jsonl'), traces.a + '\n');
    const edited = await checkFixture(out, engines);
    expect(edited.ok).toBe(false);
    expect(edited.problems).toEqual([expect.stringMatching(/^a\.jsonl was changed after it was written/)]);
  }, 60_000);

  it('refuses a trace larger than the history keeps, naming it, and saves nothing', async () => {
    const before = readdirSync(join(root, 'data', 'history')).length;
    const huge = 'x'.repeat(MAX_KEPT_TRACE_BYTES + 1);
    const error = await studio.importTraces({ a: { name: 'a.jsonl', text: traces.a }, b: { name: 'huge.jsonl', text: huge } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParityError);
    expect((error as ParityError).kind).toBe('input');
    expect((error as Error).message).toMatch(/^huge\.jsonl is 64\.0 MB; the studio keeps imported traces up to 64\.0 MB each .*parity compare-trace --out$/);
    expect(readdirSync(join(root, 'data', 'history')).length).toBe(before);
  });
});
