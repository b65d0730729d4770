import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { encodeWav } from '../../../electron/common/wav/encode-wav.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { zipDisposition } from '../../../electron/server/fixture-zip.js';
import { cookieName } from '../../../electron/server/request-guard.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { ensureBuilt } from '../host/ensure-built.js';
import { connectBrowserClient } from './browser-client.js';

let server: RunningServer;
let host: StudioHost;
let ws: WebSocket;
let studio: StudioApi;
let base: string;

beforeAll(async () => {
  ensureBuilt();
  const root = mkdtempSync(join(tmpdir(), 'fixture-download-'));
  host = new StudioHost({ dataDir: join(root, 'data') });
  server = await startStudioServer({ studio: host, staticDir: join(root, 'renderer'), port: 0 });
  base = `127.0.0.1:${server.port}`;
  ({ ws, studio } = await connectBrowserClient(server));
}, 60_000);
afterAll(async () => {
  ws.close();
  await server.close();
  await host.dispose();
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { Host: base, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const auth = () => ({ Authorization: `Bearer ${server.token}` });

/** Imports two short WAVs as a browser does (bytes) and exports the entry where browser mode puts it. */
async function exportOne(): Promise<{ dir: string; files: string[]; downloadId?: string }> {
  const tone = (f: number) => Float32Array.from({ length: 4800 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * f * i) / 24000));
  const wav = (name: string, f: number) => ({ name, bytes: encodeWav([tone(f)], 24000, 'pcm16') });
  const imported = await studio.importWavs({ a: wav('a.wav', 220), b: wav('b.wav', 230) });
  const { dir } = await studio.exportLocation({ id: imported.historyId });
  return studio.exportFixture({ id: imported.historyId, dir });
}

describe('browser mode: GET /download/<id> of an exported fixture', () => {
  it('zips exactly the files the export wrote, byte for byte, inside <folder>/, named <folder>.zip', async () => {
    const exported = await exportOne();
    expect(exported.downloadId).toMatch(/^[A-Za-z0-9_-]{24}$/); // 18 random bytes, base64url
    // A file put there afterwards was not exported, so it is not served.
    writeFileSync(join(exported.dir, 'notes.txt'), 'added later\n');
    const res = await get(`/download/${exported.downloadId}`, auth());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const folder = exported.dir.split('/').pop()!;
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${folder}.zip"; filename*=UTF-8''${folder}.zip`);
    const entries = unzipSync(new Uint8Array(res.body));
    // One folder inside, named as the exported one: unzipping gives what `parity gate <folder>` takes.
    expect(Object.keys(entries).sort()).toEqual(exported.files.map((name) => `${folder}/${name}`));
    expect(exported.files).toEqual(['a.wav', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png']);
    expect(readdirSync(exported.dir).sort()).toEqual([...exported.files, 'notes.txt'].sort());
    for (const name of exported.files) expect(sha256(entries[`${folder}/${name}`]), name).toBe(sha256(readFileSync(join(exported.dir, name))));
  }, 60_000);

  it('needs the token (query, cookie or header) and refuses a foreign Origin or Host', async () => {
    const { downloadId } = await exportOne();
    expect((await get(`/download/${downloadId}`)).status).toBe(401);
    expect((await get(`/download/${downloadId}?token=wrong`)).status).toBe(401);
    expect((await get(`/download/${downloadId}`, { Cookie: `${cookieName(server.port, server.token)}=${server.token}` })).status).toBe(200);
    expect((await get(`/download/${downloadId}?token=${server.token}`)).status).toBe(200);
    const origin = await get(`/download/${downloadId}`, { ...auth(), Origin: 'http://evil.example' });
    expect([origin.status, origin.body.toString()]).toEqual([403, expect.stringContaining('Origin "http://evil.example"')]);
    expect((await get(`/download/${downloadId}`, { ...auth(), Host: `evil.example:${server.port}` })).status).toBe(403);
  }, 60_000);

  it('answers an unknown id with 404 and a sentence, and refuses a path-like id', async () => {
    const unknown = await get('/download/AAAAAAAAAAAAAAAAAAAAAAAA', auth());
    expect([unknown.status, unknown.body.toString()]).toEqual([404, expect.stringMatching(/^no export with download id AAAAAAAAAAAAAAAAAAAAAAAA on this server .*export the fixture again\n$/)]);
    for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2Ftmp', 'a%00b', 'short']) {
      const refused = await get(`/download/${id}`, auth());
      expect([refused.status, refused.body.toString()], id).toEqual([400, expect.stringContaining('is not a download id')]);
    }
    // `..` segments are resolved by the URL parser before routing: this is the static route, not a download.
    expect((await get('/download/../../etc/passwd', auth())).status).toBe(404);
  });

  it('says the export is gone (410) when a file it wrote was removed, before sending any zip', async () => {
    const exported = await exportOne();
    rmSync(join(exported.dir, 'b.wav'));
    const res = await get(`/download/${exported.downloadId}`, auth());
    expect([res.status, res.body.toString()]).toEqual([410, expect.stringContaining(`${join(exported.dir, 'b.wav')}: no such file or folder`)]);
    expect((await get(`/download/${exported.downloadId}`, { ...auth() })).headers['content-type']).toMatch(/^text\/plain/);
  }, 60_000);

  it('allows only GET on a download', async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/download/AAAAAAAAAAAAAAAAAAAAAAAA', method: 'HEAD', headers: { Host: base, ...auth() } }, (r) => resolve(r.statusCode!));
      req.on('error', reject);
      req.end();
    });
    expect(res).toBe(405);
  });
});

describe('zipDisposition', () => {
  it('names <folder>.zip, with an ASCII fallback for other characters (RFC 6266, RFC 5987)', () => {
    expect(zipDisposition('/data/exports/20250101-120000-1a2b3c')).toBe(`attachment; filename="20250101-120000-1a2b3c.zip"; filename*=UTF-8''20250101-120000-1a2b3c.zip`);
    expect(zipDisposition('/x/prüfung "1"')).toBe(`attachment; filename="pr_fung__1_.zip"; filename*=UTF-8''pr%C3%BCfung%20%221%22.zip`);
  });
});
