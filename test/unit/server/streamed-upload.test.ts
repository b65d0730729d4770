import { existsSync, mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { createSocketChannel, type SocketLike } from '../../../electron/common/api/socket-channel.js';
import { ParityError } from '../../../electron/common/errors.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { Uploads } from '../../../electron/server/uploads.js';
import { ensureBuilt } from '../host/ensure-built.js';

// Browser mode's streamed upload (POST /upload, electron/server/uploads.ts): a WAV pair imported by
// upload ids measures the same as the same bytes sent in the WebSocket message; an upload over the cap
// is refused with one line; an upload serves one import; no token, no upload.

const CAP = 256 * 1024;
let server: RunningServer;
let host: StudioHost;
let studio: StudioApi;
let ws: WebSocket;
let uploadsIn: string;
/** The server's private upload folders (one per server). */
const uploadFolders = () => readdirSync(uploadsIn).map((f) => join(uploadsIn, f));

function tone(seconds: number, gain: number): Uint8Array {
  const n = Math.round(24_000 * seconds);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) x[i] = gain * Math.sin((2 * Math.PI * 220 * i) / 24_000) * (0.6 + 0.4 * Math.sin(i / 900));
  return encodeWav([x], 24_000, 'pcm16');
}
const A = tone(2, 0.5);
const B = tone(2, 0.45);

/** The connection's name the test's WebSocket opened with, as the page makes one. */
const SESSION = 'test-session-0123456789';
let suffix = 0;
const randomSuffix = () => `${process.pid}-${++suffix}-0123456789`;
const post = (name: string, body: Uint8Array, auth = true, session = SESSION) =>
  fetch(`http://127.0.0.1:${server.port}/upload?name=${encodeURIComponent(name)}&session=${session}`, {
    method: 'POST',
    body,
    headers: auth ? { Authorization: `Bearer ${server.token}` } : {},
  });

beforeAll(async () => {
  ensureBuilt();
  const root = mkdtempSync(join(tmpdir(), 'streamed-upload-'));
  mkdirSync(join(root, 'renderer'));
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>studio</title>');
  host = new StudioHost({ dataDir: join(root, 'data') });
  uploadsIn = join(root, 'uploads');
  mkdirSync(uploadsIn);
  server = await startStudioServer({ studio: host, staticDir: join(root, 'renderer'), port: 0, uploadLimits: { maxBytes: CAP }, uploadsIn });
  ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}&session=${SESSION}`);
  await new Promise((resolve, reject) => {
    ws.on('open', resolve);
    ws.on('error', reject);
  });
  studio = createClient(createSocketChannel(ws as unknown as SocketLike));
}, 60_000);
afterAll(async () => {
  ws?.close();
  await server?.close();
  await host?.dispose();
});

describe('Uploads: an upload no import names', () => {
  it('is deleted after its time to live, and its id then refused', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'uploads-ttl-'));
    const uploads = new Uploads({ maxBytes: CAP, ttlMs: 50 }, parent);
    uploads.openSession(SESSION);
    const body = Object.assign(Readable.from([Buffer.from(A)]), { headers: { 'content-length': String(A.byteLength) } }) as unknown as IncomingMessage;
    const ref = await uploads.receive(body, 'late.wav', SESSION);
    const folder = join(parent, readdirSync(parent)[0]);
    expect(readdirSync(folder)).toEqual([ref.upload]);
    await new Promise((r) => setTimeout(r, 300));
    expect(readdirSync(folder)).toEqual([]);
    expect(() => uploads.take({ upload: ref.upload }, 'a', SESSION)).toThrow(`a: no upload ${ref.upload} from this page's connection on this server`);
    await uploads.close();
  });
});

describe('browser mode: WAVs by streamed upload', () => {
  it('imports a pair by upload ids, measured exactly as the same bytes sent in the message', async () => {
    expect(A.byteLength).toBeLessThan(CAP);
    const ra = await post('take-a.wav', A);
    const rb = await post('take-b.wav', B);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    const a = (await ra.json()) as { upload: string; name: string; bytes: number };
    const b = (await rb.json()) as { upload: string; name: string; bytes: number };
    expect(a).toMatchObject({ name: 'take-a.wav', bytes: A.byteLength });
    const { jobId } = await studio.startImportWavs({ a: { upload: a.upload }, b: { upload: b.upload } });
    const uploaded = await studio.comparisonResult({ jobId });
    const inMessage = await studio.importWavs({ a: { name: 'take-a.wav', bytes: A }, b: { name: 'take-b.wav', bytes: B } });
    // Same decoder, same bytes: every metric is the same number, not merely close.
    expect(uploaded.report.metrics).toEqual(inMessage.report.metrics);
    expect(uploaded.a?.samples).toEqual(inMessage.a?.samples);
    const entry = (await studio.listHistory()).entries.find((e) => e.id === uploaded.historyId);
    expect(entry?.title).toBe('take-a.wav vs take-b.wav');
    // Each upload serves one import, and its file is gone once read.
    const again = await studio.startImportWavs({ a: { upload: a.upload }, b: { upload: b.upload } }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ParityError);
    expect((again as ParityError).message).toBe(`a: no upload ${a.upload} from this page's connection on this server (each upload serves one import of the page that sent it; send the file again)`);
    for (const folder of uploadFolders()) expect(readdirSync(folder)).toEqual([]);
  }, 60_000);

  it('refuses an upload over the cap with one line naming the file, its size and the cap; nothing is kept', async () => {
    const big = new Uint8Array(CAP + 1);
    const res = await post('long-take.wav', big);
    expect(res.status).toBe(413);
    expect(await res.text()).toBe('refused: long-take.wav is 262145 bytes; browser mode takes uploads up to 262144 bytes each (compare larger files with parity compare-wav on the server)\n');
    for (const folder of uploadFolders()) expect(readdirSync(folder)).toEqual([]);
  });

  it('stops a chunked upload (no length announced) once it passes the cap, keeps nothing, and serves on', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: `/upload?name=stream.wav&session=${SESSION}`, headers: { Authorization: `Bearer ${server.token}`, 'Transfer-Encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
      });
      // The server may answer 413 or drop the connection while the body is still being sent.
      req.on('error', (e) => resolve(`dropped: ${(e as NodeJS.ErrnoException).code}`));
      for (let i = 0; i < 5; i++) req.write(new Uint8Array(CAP / 2));
      req.end();
    });
    expect(outcome).toMatch(/^(413 refused: stream\.wav is over 262144 bytes; browser mode takes uploads up to 262144 bytes each|dropped: )/);
    for (const folder of uploadFolders()) expect(readdirSync(folder)).toEqual([]);
    expect((await post('after.wav', A)).status).toBe(200);
  });

  it('refuses an upload without the token, a GET of /upload, a server path in a WAV import, and an upload id sent to the host directly', async () => {
    const res = await post('a.wav', A, false);
    expect(res.status).toBe(401);
    expect(await res.text()).toMatch(/^refused: no token/);
    const get = await fetch(`http://127.0.0.1:${server.port}/upload`, { headers: { Authorization: `Bearer ${server.token}` } });
    expect(get.status).toBe(405);
    const byPath = await studio.startImportWavs({ a: { path: '/etc/passwd' }, b: { upload: 'up-0123456789abcdef0123' } }).catch((e: unknown) => e);
    expect((byPath as ParityError).message).toMatch(/^a: "\/etc\/passwd" is a path on the server, which browser mode does not read/);
    const direct = await host.importWavs({ a: { upload: 'up-0123456789abcdef0123' }, b: { upload: 'up-0123456789abcdef0123' }, maxLagMs: 100 }).catch((e: unknown) => e);
    expect((direct as ParityError).message).toMatch(/^upload up-0123456789abcdef0123: an uploaded file is known only to the browser-mode server/);
  });

  it('refuses an upload naming no open connection; deletes a connection\'s unused uploads when its WebSocket closes', async () => {
    const res = await post('stray.wav', A, true, 'no-such-page-0123456789');
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('refused: stray.wav: ?session="no-such-page-0123456789" names no open studio connection on this server (an upload belongs to the page that sends it; reload the page)\n');
    const other = 'another-page-0123456789';
    const ws2 = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}&session=${other}`);
    await new Promise((resolve, reject) => ws2.once('open', resolve).once('error', reject));
    const left = (await (await post('left-open.wav', A, true, other)).json()) as { upload: string };
    const held = () => uploadFolders().some((f) => readdirSync(f).includes(left.upload));
    expect(held()).toBe(true);
    ws2.close();
    await expect.poll(held).toBe(false);
    // A connection cannot take a name another one holds (its uploads would be counted and deleted with it).
    const twin = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}&session=${SESSION}`);
    expect(await new Promise((resolve) => twin.once('open', () => resolve('open')).once('error', (e) => resolve(e.message)))).toBe('Unexpected server response: 400');
  });

  // Every handshake ws refuses after the server's own checks passed: each leaves no session behind.
  it.each([
    ['version 8', { 'Sec-WebSocket-Version': '8', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' }],
    ['no key', { 'Sec-WebSocket-Version': '13' }],
    ['a key that is not 16 bytes', { 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'abc' }],
  ])('registers a session only for a handshake that succeeded: one ws refuses (%s) leaves nothing behind', async (_what, headers) => {
    const page = `refused-handshake-${randomSuffix()}`;
    const refused = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: `/ws?token=${server.token}&session=${page}`, headers: { Connection: 'Upgrade', Upgrade: 'websocket', ...headers } });
      req.on('response', (res) => resolve(`${res.statusCode}`));
      req.on('upgrade', () => resolve('upgraded'));
      req.on('error', (e) => resolve(`error ${e.message}`));
      req.end();
    });
    // ws answers 400 and closes the socket, which the client may see as a reset before the answer.
    expect(refused).toMatch(/^(400|error read ECONNRESET)$/);
    const stray = await post('stray.wav', A, true, page);
    expect([stray.status, await stray.text()]).toEqual([400, `refused: stray.wav: ?session="${page}" names no open studio connection on this server (an upload belongs to the page that sends it; reload the page)\n`]);
    // The page's own id is still free for its real connection.
    const real = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}&session=${page}`);
    expect(await new Promise((resolve) => real.once('open', () => resolve('open')).once('error', (e) => resolve(e.message)))).toBe('open');
    real.close();
  });

  it('lets an import take only the uploads its own connection sent; the owner keeps them', async () => {
    const other = 'thief-page-0123456789ab';
    const ws2 = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${server.token}&session=${other}`);
    await new Promise((resolve, reject) => ws2.once('open', resolve).once('error', reject));
    const thief = createClient(createSocketChannel(ws2 as unknown as SocketLike));
    const held = () => uploadFolders().flatMap((f) => readdirSync(f)).sort();
    const before = held();
    const a = (await (await post('take-a.wav', A)).json()) as { upload: string };
    const b = (await (await post('take-b.wav', B)).json()) as { upload: string };
    for (const call of [() => thief.importWavs({ a: { upload: a.upload }, b: { upload: b.upload } }), () => thief.startImportWavs({ a: { upload: a.upload }, b: { upload: b.upload } })]) {
      const refused = await call().catch((e: unknown) => e);
      expect((refused as ParityError).message).toBe(`a: no upload ${a.upload} from this page's connection on this server (each upload serves one import of the page that sent it; send the file again)`);
    }
    ws2.close();
    const own = await studio.importWavs({ a: { upload: a.upload }, b: { upload: b.upload } });
    expect(own.report.metrics?.bitIdentical).toBe(false);
    await expect.poll(held).toEqual(before);
  }, 60_000);

  it('removes its upload folder when the server closes', async () => {
    const before = uploadFolders().map((f) => readdirSync(f).length);
    const r = await post('left.wav', A);
    expect(r.status).toBe(200);
    const folders = uploadFolders();
    // One folder per server; the upload not used by an import stays in it until the server closes.
    expect(folders.map((f) => readdirSync(f).length)).toEqual([before[0] + 1]);
    ws.close();
    await server.close();
    for (const folder of folders) expect(existsSync(folder)).toBe(false);
  });
});
