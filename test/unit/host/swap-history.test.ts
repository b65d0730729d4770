import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { keptImportFiles, readKeptImport, swapKeptImport, type KeptImport } from '../../../electron/host/kept-import.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

const root = mkdtempSync(join(tmpdir(), 'swap-history-'));
const hosts: StudioHost[] = [];
const newStudio = (): StudioApi => {
  const host = new StudioHost({ dataDir: join(root, 'data') });
  hosts.push(host);
  return createDirectClient(host);
};

/** 0.5 s of a 220 Hz sine at 24 kHz, amplitude `amp`, in the given sample format. */
function tone(amp: number, format: 'pcm16' | 'float32'): Uint8Array {
  const x = new Float32Array(12000);
  for (let i = 0; i < x.length; i++) x[i] = amp * Math.sin((2 * Math.PI * 220 * i) / 24000);
  return encodeWav([x], 24000, format);
}

beforeAll(ensureBuilt, 120_000);
afterAll(async () => {
  for (const h of hosts) await h.dispose();
  rmSync(root, { recursive: true, force: true });
});

describe('Swap A/B of a history entry (swapHistory)', () => {
  it('after a restart, and with B\'s file gone from disk, gives what importing B and A in that order gives', async () => {
    const pathB = join(root, 'b.wav');
    writeFileSync(pathB, tone(0.25, 'float32'));
    const first = await newStudio().importWavs({ a: { name: 'a.wav', bytes: tone(0.5, 'pcm16') }, b: { path: pathB } });
    rmSync(pathB);

    // A new host on the same data folder: an app restart, then the entry reopened.
    const studio = newStudio();
    expect((await studio.listHistory()).entries.find((e) => e.id === first.historyId)?.swappable).toBe(true);
    await studio.openHistory({ id: first.historyId });
    const swapped = await studio.swapHistory({ id: first.historyId });
    expect(swapped.historyId).not.toBe(first.historyId);

    // The reference: the same two files imported by hand in the other order.
    writeFileSync(join(root, 'b-again.wav'), tone(0.25, 'float32'));
    const reference = await studio.importWavs({ a: { path: join(root, 'b-again.wav') }, b: { name: 'a.wav', bytes: tone(0.5, 'pcm16') } });
    expect(swapped.report.metrics).toEqual(reference.report.metrics);
    // A is now the float32 file at half amplitude, B the 16-bit one: the gain mapping B onto A is 1/2, −6.02 dB.
    expect(swapped.report.metrics?.gainDb).toBeCloseTo(-6.0206, 2);
    expect(swapped.report.sources).toMatchObject({ a: { path: pathB, format: 'float32' }, b: { path: 'a.wav', format: 'pcm16' } });
    expect(Array.from(swapped.a!.samples)).toEqual(Array.from(first.b!.samples));
    const titles = (await studio.listHistory()).entries.map((e) => e.title);
    expect(titles).toContain(`${pathB.split('/').pop()} vs a.wav`);
  }, 60_000);

  it('swaps an imported trace pair with its own WAVs, and swaps back to the first report', async () => {
    const studio = newStudio();
    const header = '{"schema":"tts-parity-trace/1","engine":"hand","q":1,"frameRate":12.5,"sampleRate":24000}';
    const step = (n: number, mean: number) => `{"step":${n},"logits":{"mean":${mean},"std":2,"min":-5,"max":9,"argmax":4,"top5":[{"id":4,"logit":9}]},"codes":[4]}`;
    const traceA = { name: 'ref.jsonl', text: [header, step(1, 1), step(2, 1)].join('\n') + '\n' };
    const traceB = { name: 'new.jsonl', text: [header, step(1, 1), step(2, 3)].join('\n') + '\n' };
    const first = await studio.importTraces({ a: traceA, b: traceB, wavA: { name: 'ref.wav', bytes: tone(0.5, 'pcm16') }, wavB: { name: 'new.wav', bytes: tone(0.25, 'float32') } });
    const swapped = await studio.swapHistory({ id: first.historyId });
    expect(swapped.report).toMatchObject({ kind: 'traces', sources: { a: { path: 'new.wav' }, b: { path: 'ref.wav' } } });
    expect(Array.from(swapped.b!.samples)).toEqual(Array.from(first.a!.samples));
    const back = await studio.swapHistory({ id: swapped.historyId });
    expect(back.report.metrics).toEqual(first.report.metrics);
    expect(back.report.sources).toEqual(first.report.sources);
  }, 60_000);

  it('refuses an entry that keeps no imported files (a synthesized comparison, an older import), naming it', async () => {
    const store = new HistoryStore(join(root, 'data'));
    const first = await newStudio().importWavs({ a: { name: 'a.wav', bytes: tone(0.5, 'float32') }, b: { name: 'b.wav', bytes: tone(0.5, 'float32') } });
    const opened = await store.open(first.historyId);
    const old = await store.save({ kind: 'wavs', title: 'old', report: opened.report, a: opened.a, b: opened.b });
    expect(old.entry.swappable).toBeUndefined();
    await expect(newStudio().swapHistory({ id: old.historyId })).rejects.toThrow(`history entry ${old.historyId} keeps no imported files`);
  }, 60_000);
});

describe('kept import files', () => {
  it('keep each trace with its own WAV and sidecar through the folder and the swap', async () => {
    const bytes = (n: number) => new Uint8Array([n, n + 1]);
    const kept: KeptImport = {
      kind: 'traces',
      request: {
        a: { name: 'ref.jsonl', text: 'A\n' }, b: { name: 'new.jsonl', text: 'B\n' },
        wavA: { name: 'ref.wav', bytes: bytes(1) }, wavB: { name: 'new.wav', bytes: bytes(2) },
        modulesA: { name: 'ref.modules.safetensors', bytes: bytes(3) }, modulesB: { name: 'new.modules.safetensors', bytes: bytes(4) },
        maxLagMs: 20,
      },
    };
    const dir = mkdtempSync(join(root, 'kept-'));
    // The entry's a.jsonl and b.jsonl hold the trace texts; keptImportFiles adds the rest.
    const files = { 'a.jsonl': 'A\n', 'b.jsonl': 'B\n', ...keptImportFiles(kept) };
    expect(Object.keys(files).sort()).toEqual(['a.jsonl', 'b.jsonl', 'import-modulesA', 'import-modulesB', 'import-wavA', 'import-wavB', 'import.json']);
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data);
    expect(await readKeptImport(dir)).toEqual(kept);
    expect(swapKeptImport(kept)).toEqual({
      kind: 'traces',
      request: { a: kept.request.b, b: kept.request.a, wavA: kept.request.wavB, wavB: kept.request.wavA, modulesA: kept.request.modulesB, modulesB: kept.request.modulesA, maxLagMs: 20 },
    });
    expect(await readKeptImport(mkdtempSync(join(root, 'none-')))).toBeUndefined();
  });
});
