import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceComparisonReport } from '../../electron/common/report/comparison-report.js';
import { ParityReport } from '../../electron/common/report/report.js';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';
import { closedPort, STAND_IN_MODEL, standInSamples, startStandIn, type StandIn } from '../helpers/speech-stand-in.js';
import { mapLimit, runParity } from './run-parity.js';

// The stand-in (test/helpers/speech-stand-in.ts) answers as vLLM-Omni's /v1/audio/speech does (WAV or
// pcm16, one response, SSE speech.audio.* events or raw chunks) and holds back every streamed chunk after
// the first by FIRST_DELAY_MS, so a client that reads the stream as it arrives sees its first byte well
// before its first audio sample; `/quiet` renders the same samples at 0.9 gain.
const FIRST_DELAY_MS = 300;
const TEXT = 'Two deployments, one prompt.';
const dir = mkdtempSync(join(tmpdir(), 'parity-endpoints-'));
let server: StandIn;
let url: string;

beforeAll(async () => {
  server = await startStandIn({ firstChunkDelayMs: FIRST_DELAY_MS });
  url = server.url;
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const readReport = (folder: string) => ParityReport.parse(JSON.parse(readFileSync(join(folder, 'report.json'), 'utf8')));

describe('parity compare with two endpoint sides', () => {
  it('sends the same text, seed and sampling to both, reads both streams as they arrive and reports what came back', async () => {
    const out = join(dir, 'streamed');
    const run = await runParity([
      'compare', '--text', TEXT, '--seed', '7', '--sampling', 'sample', '--temperature', '0.8', '--top-k', '50',
      '--a', `endpoint=${url},model=${STAND_IN_MODEL},voice=vivian,stream=sse`,
      '--b', `endpoint=${url}/quiet,model=${STAND_IN_MODEL},voice=vivian,stream=audio`,
      '--out', out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = readReport(out);
    const e = report.endpoints!;
    expect(e.comparedAs).toBe('wav-pair');
    expect(e.why).toBe('A has no traces=DIR; B has no traces=DIR');
    // What was sent: the very bodies the server received, equal on both sides but for the stream fields.
    const [bodyA, bodyB] = server.requests.slice(-2).map((r) => r.body);
    expect(e.a.request.body).toEqual(bodyA);
    expect(e.b.request.body).toEqual(bodyB);
    for (const key of ['input', 'seed', 'extra_params', 'model', 'voice', 'response_format']) expect(bodyA[key]).toEqual(bodyB[key]);
    expect(bodyA).toMatchObject({ input: TEXT, seed: 7, extra_params: { temperature: 0.8, top_k: 50, top_p: 1, repetition_penalty: 1 }, stream: true, stream_format: 'sse' });
    expect(bodyB).toMatchObject({ stream: true, stream_format: 'audio' });
    // What came back.
    const n = standInSamples(TEXT, 7).length;
    for (const side of [e.a, e.b]) {
      expect(side.response).toMatchObject({ status: 200, format: 'pcm16', sampleRate: 24000, channels: 1, samples: n, serverModel: STAND_IN_MODEL, serverVersion: 'stand-in 1.0' });
      expect(side.response.firstByteMs).toBeLessThan(FIRST_DELAY_MS);
      expect(side.response.firstAudioMs).toBeGreaterThanOrEqual(FIRST_DELAY_MS - 5);
      expect(side.response.chunks).toBeGreaterThan(1);
    }
    expect(e.a.response.stream).toBe('sse');
    expect(e.a.response.usage).toEqual({ input_tokens: TEXT.length, output_tokens: 7, total_tokens: TEXT.length + 7 });
    // B is A at 0.9: the comparison says "slightly quieter", not different content.
    expect(report.metrics.gainDb).toBeCloseTo(-20 * Math.log10(0.9), 2);
    expect(report.metrics.matchedNullDepthDb).toBeLessThan(-60);
    expect(report.verdict).toBe('diverged');
    expect(run.stdout).toMatch(/first audio B − A: [+−]\d+ ms/);
    expect(run.stdout).toContain('compared as a WAV pair');
    for (const f of ['a.wav', 'b.wav', 'diff.wav', 'report.md']) expect(existsSync(join(out, f))).toBe(true);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('### Endpoints');
    const a = decodeWav(new Uint8Array(readFileSync(join(out, 'a.wav'))), 'a.wav').channels[0];
    expect(Array.from(a.subarray(0, 50))).toEqual(Array.from(standInSamples(TEXT, 7).subarray(0, 50), (s) => s / 32768));
  });

  it('one endpoint twice is identical, and --fail-on diverged passes; pcm with rate= decodes the same samples', async () => {
    const run = await runParity(['compare', '--text', TEXT, '--a', `endpoint=${url}`, '--b', `endpoint=${url},format=pcm,rate=24000`, '--json', '--fail-on', 'diverged']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('identical');
    expect(report.endpoints.b.response.contentType).toBe('audio/pcm');
  });

  it('sends an API key from the environment and never writes or prints it', async () => {
    const out = join(dir, 'keyed');
    const secret = 'sk-test-7f3a9c-never-stored';
    const run = await runParity(['compare', '--text', TEXT, '--a', `endpoint=${url},key-env=PARITY_TEST_KEY`, '--b', `endpoint=${url},key-env=PARITY_TEST_KEY`, '--out', out], { env: { PARITY_TEST_KEY: secret } });
    expect(run.status).toBe(0);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${secret}`);
    expect(run.stdout + run.stderr).not.toContain(secret);
    for (const f of ['report.json', 'report.md', 'report.html']) expect(readFileSync(join(out, f), 'utf8')).not.toContain(secret);
    expect(readReport(out).endpoints!.a.request.headers).toContain('authorization');
  });
});

describe('endpoint faults: one line naming the endpoint, exit 2, nothing written', () => {
  const cases: [name: string, a: () => string, expected: RegExp][] = [
    ['server down', () => `endpoint=http://127.0.0.1:${downPort}`, /^parity compare: endpoint A http:\/\/127\.0\.0\.1:\d+\/v1\/audio\/speech: cannot connect: connection refused/],
    ['timeout', () => `endpoint=${url}/slow,timeout=1`, /endpoint A .*\/slow\/v1\/audio\/speech: timed out after 1 s/],
    ['HTTP 400 with the server\'s message', () => `endpoint=${url}/http400,voice=nobody`, /endpoint A .*: HTTP 400 Bad Request: voice 'nobody' is not supported; supported voices: vivian, ryan$/],
    ['HTTP 500 with the server\'s message', () => `endpoint=${url}/http500`, /: HTTP 500 Internal Server Error: EngineCore encountered an issue/],
    ['JSON instead of audio', () => `endpoint=${url}/json`, /: the response is not wav audio \(content-type "application\/json", expected audio\/wav or .*\): .*not audio/],
    ['an HTML page', () => `endpoint=${url}/html`, /: the response is not wav audio \(content-type "text\/html"/],
    ['a WAV that is not one', () => `endpoint=${url}/badwav`, /: the response is not a WAV parity reads: /],
    ['mid-stream disconnect (raw audio)', () => `endpoint=${url}/drop,stream=audio`, /: the connection dropped mid-response after \d+ audio bytes .*nothing was written/],
    ['mid-stream disconnect (SSE)', () => `endpoint=${url}/drop,stream=sse`, /: (the connection dropped mid-response|the SSE stream ended without speech\.audio\.done)/],
    ['SSE error event', () => `endpoint=${url}/sse-error,stream=sse`, /: the server reported an error mid-stream \(SSE speech\.audio\.error, after \d+ audio bytes\): Code2Wav stage failed: out of memory/],
    ['SSE stream cut before its done event', () => `endpoint=${url}/sse-cut,stream=sse`, /: the SSE stream ended without speech\.audio\.done after \d+ events/],
    ['no audio samples', () => `endpoint=${url}/empty`, /: the response is not a WAV parity reads: data chunk is empty \(0 samples\)$/],
    ['a host that is not loopback', () => 'endpoint=http://speech.example.invalid:8091', /: host "speech\.example\.invalid" is not loopback and was not allowed: give --allow-host speech\.example\.invalid/],
    ['key-env not set', () => `endpoint=${url},key-env=PARITY_TEST_UNSET_KEY`, /: key-env=PARITY_TEST_UNSET_KEY: that environment variable is not set/],
  ];
  let downPort = 0;
  beforeAll(async () => {
    downPort = await closedPort();
  });

  it.each(cases.map(([name]) => name))('%s', async (name) => {
    const [, a, expected] = cases.find((c) => c[0] === name)!;
    const out = join(dir, `fault-${name.replace(/\W+/g, '-')}`);
    const run = await runParity(['compare', '--text', TEXT, '--a', a(), '--b', `endpoint=${url}`, '--out', out], { env: { PARITY_TEST_UNSET_KEY: '' } });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n').filter((l) => !l.startsWith('warning: no report page'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(expected);
    expect(existsSync(out)).toBe(false);
  });

  it('two sample rates, a mixed pair and bad endpoint syntax are refused the same way', async () => {
    const runs = await mapLimit(
      [
        ['--a', `endpoint=${url}`, '--b', `endpoint=${url}/rate16k`],
        ['--a', `endpoint=${url}`, '--b', 'graph'],
        ['--a', 'endpoint=ftp://127.0.0.1:1', '--b', `endpoint=${url}`],
        ['--a', `endpoint=${url},vocoder=stream`, '--b', `endpoint=${url}`],
        ['--a', `endpoint=${url}`, '--b', `endpoint=${url}`, '--drill'],
      ],
      2,
      (args) => runParity(['compare', '--text', TEXT, ...args]),
    );
    const expected = [
      /^parity compare: endpoints A and B: the servers answered at two sample rates \(A 24000 Hz, B 16000 Hz\)/,
      /^parity compare: --a is an endpoint and --b an engine profile/,
      /^parity compare: profile "endpoint=ftp:\/\/127\.0\.0\.1:1": endpoint "ftp:\/\/127\.0\.0\.1:1": scheme "ftp" \(expected http or https\)/,
      /^parity compare: profile ".*": unknown key "vocoder" for an endpoint/,
      /^parity compare: --drill runs our engine; it does not apply to endpoint sides/,
    ];
    runs.forEach((run, i) => {
      expect(run.status).toBe(2);
      expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(expected[i]);
    });
  });

  it('Ctrl-C stops the request: exit 130, and the server sees its client go', async () => {
    const before = server.requests.length;
    const run = await runParity(['compare', '--text', TEXT, '--a', `endpoint=${url}/slow`, '--b', `endpoint=${url}`], {
      whileRunning: (child) => {
        const timer = setInterval(() => {
          if (server.requests.length > before) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20);
        return () => clearInterval(timer);
      },
    });
    expect(run.status).toBe(130);
    expect(run.stderr).toMatch(/^parity compare: interrupted \(SIGINT\); the requests were stopped; nothing was written\n$/);
    await expect.poll(() => server.closedEarly.includes('/slow')).toBe(true);
  });
});

describe('traces the servers recorded', () => {
  it('with both requests\' traces found, the pair is localised as any trace pair, and the fixture keeps the traces', async () => {
    const traces = { a: join(dir, 'rec-a'), b: join(dir, 'rec-b') };
    for (const d of Object.values(traces)) mkdirSync(d, { recursive: true });
    const recording = await startStandIn({ traceDirs: { '/': traces.a, '/quiet': traces.b } });
    try {
      const out = join(dir, 'traced');
      const run = await runParity(['compare', '--text', TEXT, '--a', `endpoint=${recording.url},traces=${traces.a}`, '--b', `endpoint=${recording.url}/quiet,traces=${traces.b}`, '--out', out]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const report = TraceComparisonReport.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
      expect(report.endpoints!.comparedAs).toBe('traces');
      expect(report.endpoints!.a.trace).toEqual({ file: join(traces.a, 'speech-1.jsonl'), requestId: 'speech-1' });
      expect(report.endpoints!.b.trace).toEqual({ file: join(traces.b, 'speech-2.jsonl'), requestId: 'speech-2' });
      // The stand-in's recorder picks other codes from step 3 on for /quiet.
      expect(report.divergence.firstStep).toBe(3);
      expect(report.verdict).toBe('diverged');
      expect(readFileSync(join(out, 'a.jsonl'), 'utf8')).toBe(readFileSync(join(traces.a, 'speech-1.jsonl'), 'utf8'));
      expect(run.stdout).toContain("compared as a trace pair (both servers' recorders wrote this request's trace)");
    } finally {
      await recording.close();
    }
  });

  it('two new traces during one request: none is picked, and the WAV-pair report says why', async () => {
    const d = join(dir, 'rec-busy');
    mkdirSync(d, { recursive: true });
    const busy = await startStandIn({ traceDirs: { '/': d }, extraTraces: 1 });
    try {
      const run = await runParity(['compare', '--json', '--text', TEXT, '--a', `endpoint=${busy.url},traces=${d}`, '--b', `endpoint=${busy.url}`]);
      expect(run.status).toBe(0);
      const e = JSON.parse(run.stdout).endpoints;
      expect(e.comparedAs).toBe('wav-pair');
      expect(e.why).toBe(`A: 2 traces appeared in ${d} during the request (speech-1-other1.jsonl, speech-1.jsonl): other requests ran on that server, so which is this one's cannot be told; B has no traces=DIR`);
    } finally {
      await busy.close();
    }
  });
});

describe('parity sweep over two endpoints', () => {
  it('3 prompts in 2 shards merge into one summary and gate like any sweep', async () => {
    const corpus = join(dir, 'corpus.txt');
    writeFileSync(corpus, 'One prompt.\nA second, longer prompt here.\nThird.\n');
    const shards = join(dir, 'sweep');
    const merged = join(dir, 'sweep-merged');
    const sides = ['--a', `endpoint=${url},stream=sse`, '--b', `endpoint=${url}`];
    for (const shard of ['1/2', '2/2']) {
      const run = await runParity(['sweep', '--corpus', corpus, ...sides, '--out', shards, '--shard', shard]);
      expect(run.status).toBe(0);
    }
    const merge = await runParity(['sweep', 'merge', shards, '--out', merged]);
    expect(merge.status).toBe(0);
    const summary = JSON.parse(readFileSync(join(merged, 'sweep.json'), 'utf8'));
    expect(summary.mode).toBe('endpoints');
    expect(summary.counts).toMatchObject({ identical: 3, diverged: 0, error: 0, missing: 0 });
    expect((await runParity(['sweep', 'gate', merged, '--max-diverged-rate', '0'])).status).toBe(0);
    // B at 0.9 gain: every case diverges (audio only), and the same gate fails.
    const quiet = join(dir, 'sweep-quiet');
    expect((await runParity(['sweep', '--corpus', corpus, '--a', `endpoint=${url}`, '--b', `endpoint=${url}/quiet`, '--out', quiet])).status).toBe(0);
    expect((await runParity(['sweep', 'merge', quiet, '--out', `${quiet}-merged`])).status).toBe(0);
    const gate = await runParity(['sweep', 'gate', `${quiet}-merged`, '--max-diverged-rate', '0']);
    expect(gate.status).toBe(1);
    expect(gate.stdout).toContain('FAIL diverged-rate: diverged 3 of 3');
  });
});

describe('parity synth with an endpoint profile', () => {
  it('writes the server\'s audio as a float32 WAV and says what came back', async () => {
    const out = join(dir, 'synth.wav');
    const run = await runParity(['synth', '--text', TEXT, '--profile', `endpoint=${url},stream=sse`, '--out', out, '--seed', '3']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const wav = decodeWav(new Uint8Array(readFileSync(out)), out);
    expect(wav.format).toBe('float32');
    expect(Array.from(wav.channels[0])).toEqual(Array.from(standInSamples(TEXT, 3), (s) => s / 32768));
    expect(run.stdout).toMatch(/endpoint: endpoint=.* → HTTP 200 text\/event-stream, pcm16 1 ch 24000 Hz/);
  });

  it('a fault writes no file', async () => {
    const out = join(dir, 'synth-fault.wav');
    const run = await runParity(['synth', '--text', TEXT, '--profile', `endpoint=${url}/drop,stream=audio`, '--out', out]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^parity synth: endpoint http:.*\/drop\/v1\/audio\/speech: the connection dropped mid-response/);
    expect(existsSync(out)).toBe(false);
  });
});
