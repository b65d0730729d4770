import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

const hosts: StudioHost[] = [];
let dataDir: string;

function newHost() {
  const host = new StudioHost({ dataDir });
  hosts.push(host);
  return { host, studio: createDirectClient(host) };
}

/** 0.5 s of a 220 Hz sine at 24 kHz, amplitude `amp`. */
function tone(amp: number): Uint8Array {
  const x = new Float32Array(12000);
  for (let i = 0; i < x.length; i++) x[i] = amp * Math.sin((2 * Math.PI * 220 * i) / 24000);
  return encodeWav([x], 24000, 'float32');
}

beforeAll(ensureBuilt);
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

describe('StudioHost history through the worker', () => {
  it('imports a WAV pair (bytes and a path), keeps it across a restart, exports and deletes it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-host-'));
    const pathB = join(dataDir, 'b.wav');
    writeFileSync(pathB, tone(0.25));
    const { studio } = newHost();
    let changed = 0;
    studio.on('historyChanged', () => changed++);

    const result = await studio.importWavs({ a: { name: 'a.wav', bytes: tone(0.5) }, b: { path: pathB } });
    // B = A/2 exactly in float32, so the least-squares gain mapping B onto A is 2: 20·log10(2) = 6.0206 dB.
    expect(result.report.metrics?.gainDb).toBeCloseTo(6.0206, 3);
    expect(result.report.metrics?.bitIdentical).toBe(false);
    expect(result.a?.samples.length).toBe(12000);
    expect(changed).toBe(1);

    // A new host on the same data directory (an app restart) sees the same entry with the same audio.
    const { studio: again } = newHost();
    const { entries } = await again.listHistory();
    expect(entries.map((e) => [e.id, e.kind, e.title])).toEqual([[result.historyId, 'wavs', 'a.wav vs b.wav']]);
    const reopened = await again.openHistory({ id: result.historyId });
    expect(Array.from(reopened.b!.samples)).toEqual(Array.from(result.b!.samples));
    expect(reopened.report.metrics?.gainDb).toBe(result.report.metrics?.gainDb);

    const out = join(dataDir, 'fixture');
    await expect(again.exportFixture({ id: result.historyId, dir: out })).resolves.toEqual({ dir: out, files: ['a.wav', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png'] });
    await expect(again.exportFixture({ id: result.historyId, dir: out })).rejects.toThrow(/already exists/);
    expect(readdirSync(out).sort()).toEqual(['a.wav', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png']);

    await expect(again.deleteHistory({ id: result.historyId })).resolves.toEqual({ deleted: true });
    await expect(again.listHistory()).resolves.toEqual({ entries: [] });
    await expect(again.openHistory({ id: result.historyId })).rejects.toThrow(/not found/);
    expect(readdirSync(join(dataDir, 'history'))).toEqual([]);
    await rm(dataDir, { recursive: true });
  });

  it('reports bad WAV input with the file name, and the worker keeps serving', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-host-'));
    const { studio } = newHost();
    await expect(studio.importWavs({ a: { name: 'junk.wav', bytes: new Uint8Array(10) }, b: { name: 'b.wav', bytes: tone(0.1) } })).rejects.toMatchObject({
      kind: 'wav',
      message: expect.stringContaining('junk.wav'),
    });
    await expect(studio.importWavs({ a: { path: join(dataDir, 'missing.wav') }, b: { name: 'b.wav', bytes: tone(0.1) } })).rejects.toThrow(/missing\.wav: cannot read \(no such file or folder\)/);
    const ok = await studio.importWavs({ a: { name: 'a.wav', bytes: tone(0.1) }, b: { name: 'b.wav', bytes: tone(0.1) } });
    expect(ok.report.metrics?.bitIdentical).toBe(true);
    expect(existsSync(join(dataDir, 'history', ok.historyId, 'report.json'))).toBe(true);
    await rm(dataDir, { recursive: true });
  });

  it('imports two traces with their WAVs as one comparison (localisation and audio metrics), kept across a restart', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-host-'));
    const { studio } = newHost();
    const header = '{"schema":"tts-parity-trace/1","engine":"hand","q":1,"frameRate":12.5,"sampleRate":24000}';
    const step = (n: number) => `{"step":${n},"logits":{"mean":1,"std":2,"min":-5,"max":9,"argmax":4,"top5":[{"id":4,"logit":9}]},"codes":[4]}`;
    const text = [header, step(1), step(2)].join('\n') + '\n';
    const traces = { a: { name: 'a.jsonl', text }, b: { name: 'b.jsonl', text } };
    await expect(studio.importTraces({ ...traces, wavA: { name: 'a.wav', bytes: tone(0.5) } })).rejects.toThrow(/both runs' WAVs.*only a\.wav/);
    const result = await studio.importTraces({ ...traces, wavA: { name: 'a.wav', bytes: tone(0.5) }, wavB: { name: 'b.wav', bytes: tone(0.25) } });
    const report = result.report as typeof result.report & { kind: string; divergence: { audioCompared: boolean } };
    expect(report.kind).toBe('traces');
    expect(report.divergence.audioCompared).toBe(true);
    // B is A at half amplitude.
    expect(report.metrics?.bitIdentical).toBe(false);
    expect(report.sources).toMatchObject({ a: { path: 'a.wav', sampleRate: 24000 }, b: { path: 'b.wav' } });
    expect(result.a?.samples.length).toBe(12000);
    const reopened = await newHost().studio.openHistory({ id: result.historyId });
    expect(reopened.b?.samples.length).toBe(12000);
    expect(reopened.report).toMatchObject({ kind: 'traces', verdict: report.verdict });
    await rm(dataDir, { recursive: true });
  });
  it('imports two traces without WAVs: the step localisation alone, no audio metrics, and it reopens', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'studio-host-'));
    const { studio } = newHost();
    const header = '{"schema":"tts-parity-trace/1","engine":"hand","q":1,"frameRate":12.5,"sampleRate":24000}';
    const step = (n: number, argmax: number) => `{"step":${n},"logits":{"mean":1,"std":2,"min":-5,"max":9,"argmax":${argmax},"top5":[{"id":${argmax},"logit":9}]},"codes":[${argmax}]}`;
    const a = [header, step(1, 4), step(2, 4), step(3, 4)].join('\n') + '\n';
    const b = [header, step(1, 4), step(2, 4), step(3, 5)].join('\n') + '\n';
    const result = await studio.importTraces({ a: { name: 'a.jsonl', text: a }, b: { name: 'b.jsonl', text: b } });
    expect(result.report).toMatchObject({ kind: 'traces', verdict: 'diverged', divergence: { firstStep: 3, audioCompared: false } });
    expect(result.report.metrics).toBeUndefined();
    expect(result.a).toBeUndefined();
    const reopened = await newHost().studio.openHistory({ id: result.historyId });
    expect(reopened.report).toMatchObject({ kind: 'traces', divergence: { firstStep: 3 } });
    await rm(dataDir, { recursive: true });
  });
});
