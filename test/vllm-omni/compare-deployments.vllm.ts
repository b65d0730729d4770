import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { TraceComparisonReport } from '../../electron/common/report/comparison-report.js';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';
import { runParity } from '../cli/run-parity.js';

// Two real vLLM-Omni OpenAI servers on CPU (servers-setup.ts; tiny random-weight Qwen3-TTS, greedy, max_tokens 12):
// A serves the CPU deploy YAML as it is (the whole Code2Wav once the talker is done), B the same with
// --async-chunk (Code2Wav streamed in chunks as the talker yields codes). Each server's recorder writes the
// request's talker trace to its own folder, which the comparison picks up.
const { a, b, model } = inject('vllm');
const work = mkdtempSync(join(tmpdir(), 'parity-vllm-cmp-'));
const TEXT = 'Hello there, parity.';
const sideA = `endpoint=${a.url},traces=${a.traces}`;
const sideB = `endpoint=${b.url},stream=audio,traces=${b.traces}`;
afterAll(() => rmSync(work, { recursive: true, force: true }));
const samples = (file: string) => decodeWav(new Uint8Array(readFileSync(file)), file).channels[0];

/**
 * The first vocoder frame (1-based, = its step) that streamed Code2Wav decodes without its whole history: chunks
 * start at 0, `initial`, `initial + chunk`, … and each is decoded with `left` frames of left context, so the first
 * chunk starting past `left` frames lacks the frames before its window; the whole decode has them all.
 */
function firstFrameWithoutHistory(): number {
  const yaml = readFileSync('python/tests/vllm_omni/qwen3_tts_cpu.yaml', 'utf8');
  const value = (key: string) => Number(new RegExp(`^\\s*${key}:\\s*(\\d+)`, 'm').exec(yaml)![1]);
  const [initial, chunk, left] = [value('initial_codec_chunk_frames'), value('codec_chunk_frames'), value('codec_left_context_frames')];
  let start = initial;
  while (start <= left) start += chunk;
  return start + 1;
}

describe('two vLLM-Omni deployments (eager vs --async-chunk) compared by parity', () => {
  const out = join(work, 'cmp');

  it("parity compare picks up both servers' traces: codes equal at every step, the first divergence inside the vocoder where streaming loses history", async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', sideA, '--b', sideB, '--out', out], { timeoutMs: 240_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
    const e = report.endpoints!;
    expect(e.comparedAs).toBe('traces');
    expect(dirname(e.a.trace!.file)).toBe(a.traces);
    expect(dirname(e.b.trace!.file)).toBe(b.traces);
    // vLLM-Omni names the request itself (speech-<uuid>); the trace is filed under that id.
    expect(e.a.trace!.requestId).toMatch(/^speech-/);
    for (const side of [e.a, e.b]) {
      expect(side.response).toMatchObject({ status: 200, contentType: 'audio/wav', sampleRate: 24000, channels: 1, serverModel: model, serverVersion: '0.30.0' });
      expect(side.response.samples).toBeGreaterThan(0);
    }
    expect(e.a.request.body).toEqual({ ...e.b.request.body, stream: undefined, stream_format: undefined });
    // A answers in one piece; B streams Code2Wav's chunks as they are decoded, so its first audio comes before its last byte.
    expect(e.a.response.chunks).toBe(1);
    expect(e.b.response.chunks).toBeGreaterThan(1);
    expect(e.b.response.firstAudioMs).toBeLessThan(e.b.response.totalMs);
    // The talker does not depend on how Code2Wav is run: every step's codes and logit statistics agree.
    const d = report.divergence;
    expect(d.steps.every((s) => JSON.stringify(s.codesA) === JSON.stringify(s.codesB) && s.maxStatDiff === 0)).toBe(true);
    expect(d.stage).toBe('vocoder');
    expect(d.firstStep).toBe(firstFrameWithoutHistory());
    expect(report.verdict).toBe('diverged');
    // Same content: the two vocoder windows differ by a few thousandths, far under the signal.
    const metrics = report.metrics!;
    expect(metrics.maxAbsDiff).toBeGreaterThan(1e-4);
    expect(metrics.maxAbsDiff).toBeLessThan(0.01);
    expect(metrics.correlation).toBeGreaterThan(0.9999);
    expect(run.stdout).toContain("compared as a trace pair (both servers' recorders wrote this request's trace)");
    // The fixture holds copies of both traces and re-runs without the servers.
    expect(readFileSync(join(out, 'a.jsonl'), 'utf8')).toBe(readFileSync(e.a.trace!.file, 'utf8'));
    const gate = await runParity(['gate', out], { timeoutMs: 120_000 });
    expect(gate.stdout).toContain(`recorded diverged at step ${d.firstStep} (vocoder)`);
    expect(gate.status).toBe(0);
    console.log(`vllm deployments: first audio A ${e.a.response.firstAudioMs.toFixed(0)} ms (total ${e.a.response.totalMs.toFixed(0)}), B ${e.b.response.firstAudioMs.toFixed(0)} ms (total ${e.b.response.totalMs.toFixed(0)}, ${e.b.response.chunks} chunks); max |Δ| ${metrics.maxAbsDiff}`);
  });

  it('parity synth per side writes the audio the comparison had, bit for bit (greedy, one deployment each)', async () => {
    for (const [side, spec, wav] of [['a', `endpoint=${a.url}`, 'a.wav'], ['b', `endpoint=${b.url},stream=audio`, 'b.wav']] as const) {
      const file = join(work, `synth-${side}.wav`);
      const run = await runParity(['synth', '--text', TEXT, '--profile', spec, '--out', file], { timeoutMs: 120_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`server: model ${model}, version 0.30.0`);
      expect(Array.from(samples(file))).toEqual(Array.from(samples(join(out, wav))));
    }
  });

  it("one deployment read whole and as SSE is identical: the streamed server's own takes agree", async () => {
    const run = await runParity(['compare', '--json', '--text', TEXT, '--a', `endpoint=${b.url},traces=${b.traces}`, '--b', `endpoint=${b.url},stream=sse,traces=${b.traces}`], { timeoutMs: 120_000 });
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.endpoints.comparedAs).toBe('traces');
    expect(report.endpoints.b.response).toMatchObject({ stream: 'sse', contentType: 'text/event-stream' });
    expect(report.verdict).toBe('identical');
  });

  it('a sweep over 3 prompts against the two deployments merges and gates like any sweep', async () => {
    const corpus = join(work, 'corpus.txt');
    writeFileSync(corpus, 'Hi.\nHello there, parity.\nA second and rather longer sentence to say.\n');
    const shards = join(work, 'sweep');
    const sweep = await runParity(['sweep', '--corpus', corpus, '--a', sideA, '--b', sideB, '--out', shards], { timeoutMs: 240_000 });
    expect(sweep.status).toBe(0);
    const merged = `${shards}-merged`;
    expect((await runParity(['sweep', 'merge', shards, '--out', merged])).status).toBe(0);
    const summary = JSON.parse(readFileSync(join(merged, 'sweep.json'), 'utf8'));
    expect(summary.mode).toBe('endpoints');
    // max_tokens 12 gives every prompt more frames than the streamed vocoder keeps as history: each diverges there, codes equal.
    expect(summary.counts).toMatchObject({ diverged: 3, error: 0, missing: 0 });
    const cases = readFileSync(join(shards, 'shard-001-of-1.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
    expect(cases.map((c) => [c.firstStep, c.stage])).toEqual(Array(3).fill([firstFrameWithoutHistory(), 'vocoder']));
    expect((await runParity(['sweep', 'gate', merged, '--max-diverged-rate', '0'])).status).toBe(1);
    expect((await runParity(['sweep', 'gate', merged, '--max-diverged-rate', '1', '--max-errors', '0'])).status).toBe(0);
  });

  it('report.md and report.html name both endpoints, the server model and version, first-audio and total times', () => {
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const data = JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)![1]);
    const row = (label: string) => data.endpoints.rows.find((r: string[]) => r[0] === label).slice(1);
    const { a: ea, b: eb } = report.endpoints;
    expect(row('Endpoint')).toEqual([ea.endpoint, eb.endpoint]);
    expect(row('Server model')).toEqual([model, model]);
    expect(row('Server version')).toEqual(['0.30.0', '0.30.0']);
    expect(row('First audio')).toEqual([`${ea.response.firstAudioMs.toFixed(0)} ms`, `${eb.response.firstAudioMs.toFixed(0)} ms`]);
    expect(row('Total')).toEqual([`${ea.response.totalMs.toFixed(0)} ms`, `${eb.response.totalMs.toFixed(0)} ms`]);
    expect(existsSync(join(out, 'report.md'))).toBe(true);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(`A: ${ea.endpoint} → HTTP 200 audio/wav`);
  });
});
