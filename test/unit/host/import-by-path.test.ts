import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import { decodeWav } from '../../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

// WAVs given by path are read by the engine worker, not the host, and the history copies them from disk
// and writes its float32 takes from the samples' own bytes (docs/studio.md, "Memory of a WAV import").
// None of that may change a result: the metrics are parity compare-wav's on the same files.

const root = mkdtempSync(join(tmpdir(), 'import-by-path-'));
const host = new StudioHost({ dataDir: join(root, 'data') });
const studio = createDirectClient(host);

/** 1 s stereo 16-bit at 24 kHz; B is A at 0.9× and 37 samples late (a lag, a gain and a downmix to find). */
function writePair(): { pathA: string; pathB: string } {
  const n = 24_000;
  const a = new Float32Array(n);
  const b = new Float32Array(n + 37);
  for (let i = 0; i < n; i++) a[i] = 0.4 * Math.sin((2 * Math.PI * 180 * i) / 24_000) * (0.6 + 0.4 * Math.sin(i / 700));
  for (let i = 0; i < n; i++) b[i + 37] = 0.9 * a[i];
  const pathA = join(root, 'take a.wav');
  const pathB = join(root, 'take b.wav');
  writeFileSync(pathA, encodeWav([a, a.map((x) => -0.5 * x)], 24_000, 'pcm16'));
  writeFileSync(pathB, encodeWav([b, b.map((x) => -0.5 * x)], 24_000, 'pcm16'));
  return { pathA, pathB };
}

beforeAll(ensureBuilt, 120_000);
afterAll(async () => {
  await host.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('a WAV pair imported by path', () => {
  it('measures exactly what parity compare-wav measures on the same files, and keeps both files byte for byte', async () => {
    const { pathA, pathB } = writePair();
    const result = await studio.importWavs({ a: { path: pathA }, b: { path: pathB } });
    const cli = JSON.parse(execFileSync(process.execPath, ['bin/parity.js', 'compare-wav', pathA, pathB, '--json'], { encoding: 'utf8' })) as Record<string, unknown>;
    expect(result.report.metrics?.lagSamples).toBe(37);
    // Same decoder, same analysis, same files: every number is the same, not merely close.
    expect(JSON.parse(JSON.stringify(result.report.metrics))).toEqual(cli);
    expect(result.report.sources).toMatchObject({ a: { path: pathA, channels: 2 }, b: { path: pathB, channels: 2 } });

    const dir = host.history.dirOf(result.historyId);
    expect(readFileSync(join(dir, 'import-a'))).toEqual(readFileSync(pathA));
    expect(readFileSync(join(dir, 'import-b'))).toEqual(readFileSync(pathB));
    // The history's takes are the compared mono signals, bit for bit.
    const keptA = decodeWav(new Uint8Array(readFileSync(join(dir, 'a.wav'))), 'a.wav');
    expect(keptA.format).toBe('float32');
    expect(Array.from(keptA.channels[0])).toEqual(Array.from(result.a!.samples));
  }, 60_000);

  it('with two traces: the WAVs by path measure as the same bytes do, are kept byte for byte, and swap after the files are gone', async () => {
    const { pathA, pathB } = writePair();
    const header = '{"schema":"tts-parity-trace/1","engine":"hand","q":1,"frameRate":12.5,"sampleRate":24000}';
    const step = (n: number, mean: number) => `{"step":${n},"logits":{"mean":${mean},"std":2,"min":-5,"max":9,"argmax":4,"top5":[{"id":4,"logit":9}]},"codes":[4]}`;
    const traces = { a: { name: 'ref.jsonl', text: [header, step(1, 1), step(2, 1)].join('\n') + '\n' }, b: { name: 'new.jsonl', text: [header, step(1, 1), step(2, 3)].join('\n') + '\n' } };
    const byPath = await studio.importTraces({ ...traces, wavA: { path: pathA }, wavB: { path: pathB } });
    const byBytes = await studio.importTraces({ ...traces, wavA: { name: pathA, bytes: new Uint8Array(readFileSync(pathA)) }, wavB: { name: pathB, bytes: new Uint8Array(readFileSync(pathB)) } });
    expect(byPath.report.metrics).toEqual(byBytes.report.metrics);
    expect(byPath.report.sources).toEqual(byBytes.report.sources);
    const dir = host.history.dirOf(byPath.historyId);
    expect(readFileSync(join(dir, 'import-wavA'))).toEqual(readFileSync(pathA));
    expect(readFileSync(join(dir, 'import-wavB'))).toEqual(readFileSync(pathB));
    rmSync(pathA);
    rmSync(pathB);
    const swapped = await studio.swapHistory({ id: byPath.historyId });
    expect(swapped.report.sources).toMatchObject({ a: { path: pathB }, b: { path: pathA } });
    expect(Array.from(swapped.a!.samples)).toEqual(Array.from(byPath.b!.samples));
  }, 60_000);

  it('refuses a path it cannot read before anything runs, naming it', async () => {
    const missing = join(root, 'gone.wav');
    await expect(studio.startImportWavs({ a: { path: missing }, b: { path: missing } })).rejects.toThrow(`${missing}: cannot read (`);
    await expect(studio.importWavs({ a: { path: root }, b: { path: root } })).rejects.toThrow(`${root}: cannot read (`);
  });
});
