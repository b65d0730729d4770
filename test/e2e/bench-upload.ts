/**
 * Memory benchmark of browser mode's WAV import: a pair of WAVs (100 MB each by default, BENCH_UPLOAD_MB)
 * sent to a real `parity serve` (worker threads included in its RSS): each file by POST /upload, then
 * `startImportWavs` naming the upload ids (what the page does). Both files inside one WebSocket message,
 * measured here before, are refused since messages are bounded (MAX_MESSAGE_BYTES, 4 MiB).
 * The server's resident set size is sampled every 10 ms from /proc; we print, as JSON, its growth over
 * the idle server during the upload alone and during the whole import, and that growth over the bytes
 * sent; and the kernel's own peak (VmHWM, which a 10 ms sample can miss) at the end of each phase, over
 * the same idle reading (each server is new, so the import's VmHWM is its peak unless startup was
 * higher). Not a timed assertion. Linux only (reads /proc).
 *
 *   npx tsx test/e2e/bench-upload.ts
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createClient } from '../../electron/common/api/create-client.js';
import { createSocketChannel, type SocketLike } from '../../electron/common/api/socket-channel.js';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { buildOnce } from './build-once.js';
import { startServe, type Served } from './serve-process.js';

const MB = 1024 * 1024;
const fileMb = Number(process.env.BENCH_UPLOAD_MB ?? 100);
const RATE = 24_000;

function writeWav(path: string, gain: number): number {
  const n = Math.floor((fileMb * MB) / 2); // pcm16 mono
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = gain * Math.sin((2 * Math.PI * 150 * i) / RATE) * (0.5 + 0.5 * Math.sin(i / 7000));
  const bytes = encodeWav([x], RATE, 'pcm16');
  writeFileSync(path, bytes);
  return bytes.byteLength;
}

const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const rssMb = (pid: number) => statusMb(pid, 'VmRSS');

/** Samples the server's RSS every 10 ms while `work` runs; the peak, and the idle RSS just before. */
async function peakDuring<T>(pid: number, work: () => Promise<T>): Promise<{ idleMb: number; peakMb: number; hwmMb: number; value: T }> {
  const idleMb = rssMb(pid);
  let peakMb = idleMb;
  const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 10);
  try {
    const value = await work();
    peakMb = Math.max(peakMb, rssMb(pid));
    return { idleMb, peakMb, hwmMb: statusMb(pid, 'VmHWM'), value };
  } finally {
    clearInterval(timer);
  }
}

/** The connection's name, as the page makes one; its uploads name it. */
const SESSION = 'bench-upload-0123456789';

async function connect(served: Served) {
  const ws = new WebSocket(`ws://127.0.0.1:${served.port}/ws?token=${served.token}&session=${SESSION}`);
  await new Promise((resolve, reject) => {
    ws.on('open', resolve);
    ws.on('error', reject);
  });
  return { ws, studio: createClient(createSocketChannel(ws as unknown as SocketLike)) };
}

async function upload(served: Served, path: string, name: string): Promise<{ upload: string }> {
  const res = await fetch(`http://127.0.0.1:${served.port}/upload?name=${name}&session=${SESSION}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${served.token}`, 'Content-Type': 'application/octet-stream' },
    body: new Blob([readFileSync(path)]),
  });
  if (!res.ok) throw new Error(await res.text());
  return (await res.json()) as { upload: string };
}

const round = (x: number) => Math.round(x);

buildOnce();
const dir = mkdtempSync(join(tmpdir(), 'bench-upload-'));
const pa = join(dir, 'a.wav');
const pb = join(dir, 'b.wav');
const sent = writeWav(pa, 0.4) + writeWav(pb, 0.36);

const streamed = await startServe(['--data-dir', join(dir, 'streamed')]);
const s = await connect(streamed);
await new Promise((r) => setTimeout(r, 2000));
const up = await peakDuring(streamed.child.pid!, async () => Promise.all([upload(streamed, pa, 'a.wav'), upload(streamed, pb, 'b.wav')]));
const imp = await peakDuring(streamed.child.pid!, async () => {
  const { jobId } = await s.studio.startImportWavs({ a: up.value[0], b: up.value[1], withoutAudio: true });
  return s.studio.comparisonResult({ jobId });
});
s.ws.close();
await streamed.stop();


const growth = (p: { idleMb: number; peakMb: number; hwmMb: number }) => ({
  idleMb: round(p.idleMb),
  peakMb: round(p.peakMb),
  growthMb: round(p.peakMb - p.idleMb),
  growthOverSent: +((p.peakMb - p.idleMb) / (sent / MB)).toFixed(2),
  hwmGrowthMb: round(p.hwmMb - p.idleMb),
  hwmGrowthOverSent: +((p.hwmMb - p.idleMb) / (sent / MB)).toFixed(2),
});
console.log(
  JSON.stringify(
    {
      bench: 'parity serve RSS (main + engine worker threads) during a WAV pair import from browser mode',
      sentMb: round(sent / MB),
      files: `2 × ${fileMb} MB pcm16 mono 24 kHz`,
      streamed: { upload: growth(up), importAfterUpload: growth(imp) },
    },
    null,
    2,
  ),
);
