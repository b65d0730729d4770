import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { UploadRef } from '../../../electron/common/api/primitives.js';
import { MAX_MESSAGE_BYTES } from '../../../electron/common/api/message-limit.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StoredReport, TraceComparisonReport } from '../../../electron/common/report/comparison-report.js';
import { ParityError } from '../../../electron/common/errors.js';
import { writeTrace } from '../../../electron/common/trace/write-trace.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { withStreamedUploads } from '../../../renderer/src/transport/streamed-uploads.js';
import { header, logitRow, makeStep, makeSteps } from '../common/forensics/synthetic-trace.js';
import { sidecarBytes } from '../common/trace/sidecar-bytes.js';
import { ensureBuilt } from '../host/ensure-built.js';
import { connectBrowserClient } from './browser-client.js';

// Browser mode's bounded messages: every file of an import travels by streamed upload (the page's own
// withStreamedUploads), so one WebSocket message holds at most MAX_MESSAGE_BYTES; a larger one is
// refused by the client before it is sent, and closes only its own connection at the server.

const MAX_IMPORT = 150_000;
let server: RunningServer;
let host: StudioHost;
let uploadsIn: string;
const logged: string[] = [];
const uploadedFiles = () => readdirSync(uploadsIn).flatMap((f) => readdirSync(join(uploadsIn, f)));

function tone(seconds: number, gain: number): Uint8Array {
  const n = Math.round(24_000 * seconds);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = gain * Math.sin((2 * Math.PI * 220 * i) / 24_000);
  return encodeWav([x], 24_000, 'pcm16');
}

// Traces parting at step 2, B's sidecar differing there in layers.1.mlp (as import-trace-modules.test.ts).
const q = 2;
const steps = makeSteps(3, q);
const traceA = writeTrace(header(q, { modules: 'a.modules.safetensors' }), steps);
const traceB = writeTrace(header(q, { modules: 'b.modules.safetensors' }), steps.map((s) => (s.step >= 2 ? makeStep(s.step, q, logitRow(s.step, 0.5)) : s)));
const sidecar = (shift: number) =>
  sidecarBytes([1, 2, 3].flatMap((n) => [
    { key: `${n}/00000/layers.0.mlp`, shape: [2], values: [n, 1] },
    { key: `${n}/00001/layers.1.mlp`, shape: [2], values: [n, n >= 2 ? 1 + shift : 1] },
  ]));
const TRACE_IMPORT = {
  a: { name: 'a.jsonl', text: traceA },
  b: { name: 'b.jsonl', text: traceB },
  wavA: { name: 'a.wav', bytes: tone(1, 0.5) },
  wavB: { name: 'b.wav', bytes: tone(1, 0.45) },
  modulesA: { name: 'a.modules.safetensors', bytes: sidecar(0) },
  modulesB: { name: 'b.modules.safetensors', bytes: sidecar(0.25) },
};

const sent: string[] = [];
/** POST /upload naming the connection `session`, as the page does. */
const post = (session: string) => async (file: { name: string; bytes: Uint8Array }): Promise<UploadRef> => {
  sent.push(file.name);
  const res = await fetch(`http://127.0.0.1:${server.port}/upload?name=${encodeURIComponent(file.name)}&session=${session}`, {
    method: 'POST',
    body: file.bytes as Uint8Array<ArrayBuffer>,
    headers: { Authorization: `Bearer ${server.token}` },
  });
  if (!res.ok) throw new Error(await res.text());
  return (await res.json()) as UploadRef;
};

beforeAll(async () => {
  ensureBuilt();
  const root = mkdtempSync(join(tmpdir(), 'streamed-import-'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>studio</title>');
  host = new StudioHost({ dataDir: join(root, 'data') });
  uploadsIn = join(root, 'uploads');
  mkdirSync(uploadsIn);
  server = await startStudioServer({ studio: host, staticDir: join(root, 'renderer'), port: 0, uploadLimits: { maxImportBytes: MAX_IMPORT }, uploadsIn, log: (line) => logged.push(line) });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await host?.dispose();
});

const moduleDrill = (report: StoredReport) => (report as TraceComparisonReport).moduleDrill;

describe('browser mode: a trace import by streamed uploads', () => {
  it('uploads the traces, their WAVs and sidecars, and reports exactly what the same files inline give', async () => {
    const { ws, studio, session } = await connectBrowserClient(server);
    const page: StudioApi = withStreamedUploads(studio, post(session));
    const uploaded = await page.importTraces(TRACE_IMPORT);
    expect(sent.sort()).toEqual(['a.jsonl', 'a.modules.safetensors', 'a.wav', 'b.jsonl', 'b.modules.safetensors', 'b.wav']);
    const inline = await studio.importTraces(TRACE_IMPORT);
    expect(moduleDrill(uploaded.report)).toMatchObject({ status: 'found', step: 2, module: { name: 'layers.1.mlp', maxAbsDiff: 0.25 } });
    expect({ ...uploaded.report, createdAt: 0 }).toEqual({ ...inline.report, createdAt: 0 });
    // The history shows the page's file names, not the server's private upload paths.
    const entry = (await studio.listHistory()).entries.find((e) => e.id === uploaded.historyId);
    expect(entry?.title).toBe('a.jsonl vs b.jsonl');
    expect(uploadedFiles()).toEqual([]);
    ws.close();
  }, 60_000);

  it('refuses an import whose uploads pass the per-import total, naming them, and deletes them', async () => {
    const { ws, studio, session } = await connectBrowserClient(server);
    const [a, b] = [await post(session)({ name: 'big-a.wav', bytes: new Uint8Array(80_000) }), await post(session)({ name: 'big-b.wav', bytes: new Uint8Array(80_000) })];
    const refused = await studio.importWavs({ a, b }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ParityError);
    expect((refused as ParityError).message).toBe('b: the files of this import come to 0.2 MB (big-a.wav, big-b.wav); browser mode takes up to 0.1 MB per import');
    expect(uploadedFiles()).toEqual([]);
    ws.close();
  });

  it('an upload id reaching the host unresolved (not through this server) is refused, naming it', async () => {
    const ref = { upload: 'up-0123456789abcdef0123' };
    const trace = await host.importTraces({ ...TRACE_IMPORT, a: ref, maxLagMs: 100 }).catch((e: unknown) => e);
    expect((trace as ParityError).message).toMatch(/^upload up-0123456789abcdef0123: an uploaded file is known only to the browser-mode server/);
    const sidecar = await host.importTraces({ ...TRACE_IMPORT, modulesB: ref, maxLagMs: 100 }).catch((e: unknown) => e);
    expect((sidecar as ParityError).message).toMatch(/^upload up-0123456789abcdef0123: an uploaded file is known only to the browser-mode server/);
  });
});

describe(`browser mode: one WebSocket message holds at most ${MAX_MESSAGE_BYTES} bytes`, () => {
  it('a client refuses a larger request before sending it, in one line, and its connection serves on', async () => {
    const { ws, studio } = await connectBrowserClient(server);
    const bytes = new Uint8Array(MAX_MESSAGE_BYTES);
    const refused = await studio.importWavs({ a: { name: 'a.wav', bytes }, b: { name: 'b.wav', bytes: new Uint8Array(8) } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ParityError);
    expect((refused as ParityError).message).toMatch(/^importWavs: the request is \d+ bytes, larger than the 4 MiB one WebSocket message may carry \(send files by upload: POST \/upload, docs\/studio\.md\)$/);
    expect(Array.isArray((await studio.listHistory()).entries)).toBe(true);
    ws.close();
  });

  it('the server closes a connection that sends a larger message with 1009, logs one line, and serves other clients', async () => {
    const other = await connectBrowserClient(server);
    const { ws, studio } = await connectBrowserClient(server);
    const before = logged.length;
    const closed = new Promise<number>((resolve) => ws.once('close', resolve));
    (ws as WebSocket).send(new Uint8Array(MAX_MESSAGE_BYTES + 1));
    // Sent after the large message, so never answered: it fails saying why the connection closed.
    const pending = studio.listHistory().catch((e: unknown) => e);
    expect(await closed).toBe(1009);
    expect((await pending as ParityError).message).toBe(
      'the studio connection closed (code 1009: a message was larger than the 4 MiB one WebSocket message may carry (send files by upload: POST /upload, docs/studio.md))',
    );
    expect(logged.slice(before)).toEqual(['closed a WebSocket connection whose message was larger than the 4 MiB one WebSocket message may carry (send files by upload: POST /upload, docs/studio.md)']);
    expect(Array.isArray((await other.studio.listHistory()).entries)).toBe(true);
    other.ws.close();
  });
});
