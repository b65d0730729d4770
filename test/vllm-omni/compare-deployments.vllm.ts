import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParityReport } from '../../electron/common/report/report.js';
import { runParity } from '../cli/run-parity.js';
import { buildTinyModel, requireVllmEnv, startVllmServer, waitReady, type VllmServer } from './vllm-server.js';

// Two real vLLM-Omni OpenAI servers on CPU (tiny random-weight Qwen3-TTS, greedy): A with the CPU deploy
// YAML as it is (whole Code2Wav), B with --async-chunk (streamed Code2Wav), both started at once, once for
// this file. Measured on this machine (docs/vllm-omni.md): Qwen3-TTS's chunked audio equals the one-shot
// audio exactly, so A vs B is expected identical; the comparison is what is tested, not that expectation.
const work = mkdtempSync(join(tmpdir(), 'parity-vllm-deploy-'));
let a: VllmServer;
let b: VllmServer;
const tail = (s: VllmServer) => () => readFileSync(s.log, 'utf8').slice(-3000);

beforeAll(async () => {
  requireVllmEnv();
  buildTinyModel(join(work, 'model'));
  a = startVllmServer('a', join(work, 'model'), 8091, work);
  b = startVllmServer('b', join(work, 'model'), 8092, work, ['--async-chunk']);
  await Promise.all([waitReady(a, 600_000, tail(a)), waitReady(b, 600_000, tail(b))]);
}, 900_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  rmSync(work, { recursive: true, force: true });
});

describe('two vLLM-Omni deployments compared by parity', () => {
  it('parity compare: both answer, the report says what was sent and what came back, the fixture is written', async () => {
    const out = join(work, 'cmp');
    const run = await runParity(
      ['compare', '--text', 'Hello there, parity.', '--a', `endpoint=${a.url},traces=${a.traces}`, '--b', `endpoint=${b.url},stream=audio,traces=${b.traces}`, '--out', out],
      { timeoutMs: 240_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = ParityReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    const e = report.endpoints!;
    for (const side of [e.a, e.b]) {
      expect(side.response.status).toBe(200);
      expect(side.response.sampleRate).toBe(24000);
      expect(side.response.samples).toBeGreaterThan(0);
      expect(side.response.serverModel).toBe(join(work, 'model'));
      expect(side.response.firstAudioMs).toBeLessThanOrEqual(side.response.totalMs);
    }
    expect(e.a.request.body.input).toBe(e.b.request.body.input);
    expect(e.b.response.stream).toBe('audio');
    console.log(`vllm deployments: comparedAs ${e.comparedAs}${e.why ? ` (${e.why})` : ''}, verdict ${report.verdict}; first audio A ${e.a.response.firstAudioMs.toFixed(0)} ms, B ${e.b.response.firstAudioMs.toFixed(0)} ms`);
  });

  it('a sweep over 3 prompts against the two endpoints merges and gates like any sweep', async () => {
    const corpus = join(work, 'corpus.txt');
    writeFileSync(corpus, 'Hi.\nHello there, parity.\nA second and rather longer sentence to say.\n');
    const shards = join(work, 'sweep');
    const sweep = await runParity(['sweep', '--corpus', corpus, '--a', `endpoint=${a.url}`, '--b', `endpoint=${b.url},stream=audio`, '--out', shards], { timeoutMs: 240_000 });
    expect(sweep.status).toBe(0);
    expect((await runParity(['sweep', 'merge', shards, '--out', `${shards}-merged`])).status).toBe(0);
    const summary = JSON.parse(readFileSync(join(`${shards}-merged`, 'sweep.json'), 'utf8'));
    expect(summary.mode).toBe('endpoints');
    expect(summary.counts.error + summary.counts.missing).toBe(0);
    const gate = await runParity(['sweep', 'gate', `${shards}-merged`, '--max-errors', '0']);
    expect(gate.status).toBe(0);
  });
});
