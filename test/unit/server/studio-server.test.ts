import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createClient } from '../../../electron/common/api/create-client.js';
import { createSocketChannel, type SocketLike } from '../../../electron/common/api/socket-channel.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { ensureBuilt } from '../host/ensure-built.js';

let server: RunningServer;
let host: StudioHost;
let base: string;

beforeAll(async () => {
  ensureBuilt();
  const root = mkdtempSync(join(tmpdir(), 'studio-server-'));
  const staticDir = join(root, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(root, 'secret.txt'), 'outside the static folder');
  host = new StudioHost({ dataDir: join(root, 'data') });
  // A trailing separator, as `parity serve` passes it, must not change what is served.
  server = await startStudioServer({ studio: host, staticDir: `${staticDir}/`, port: 0 });
  base = `127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.close();
  await host.dispose();
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers: { Host: base, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens a WebSocket; resolves to the open socket, or to the HTTP status the upgrade was refused with. */
function openSocket(query: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws${query}`, { headers: { Host: base, ...headers } });
    ws.on('open', () => resolve(ws));
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode!));
    ws.on('error', () => resolve(-1));
  });
}

describe('browser mode: token, Origin and Host', () => {
  it('listens on loopback only by default and prints a URL with the token', () => {
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32); // 24 random bytes, base64url
  });

  it('serves nothing over HTTP without the token or with a wrong one', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/assets/app.js')).status).toBe(401);
    expect((await get('/?token=wrong')).status).toBe(401);
    expect((await get(`/?token=${server.token}x`)).status).toBe(401);
    expect((await get('/', { Authorization: 'Bearer nope' })).status).toBe(401);
    // RFC 9110 §11.1: the scheme is case-insensitive.
    expect((await get('/', { Authorization: `bearer ${server.token}` })).status).toBe(200);
    expect((await get('/', { Authorization: `BEARER ${server.token}` })).status).toBe(200);
  });

  it('serves the page with the token, sets a port-scoped HttpOnly cookie that then opens the assets', async () => {
    const page = await get(`/?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    // Named by port and a hash of the token (request-guard.ts cookieName): sha256 hex, first 12 digits.
    const tokenHash = createHash('sha256').update(server.token).digest('hex').slice(0, 12);
    expect(cookie).toBe(`parity_token_${server.port}_${tokenHash}=${server.token}`);
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const asset = await get('/assets/app.js', { Cookie: cookie });
    expect([asset.status, asset.body]).toEqual([200, 'console.log(1)']);
    expect((await get('/../secret.txt', { Cookie: cookie })).status).toBe(404);
    expect((await get('/%2e%2e/secret.txt', { Cookie: cookie })).status).toBe(404);
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin even with the token', async () => {
    const hostRefused = await get(`/?token=${server.token}`, { Host: `evil.example:${server.port}` });
    expect([hostRefused.status, hostRefused.body]).toEqual([403, expect.stringContaining('Host "evil.example')]);
    // An SSH tunnel may map another local port onto this one (ssh -L 9000:127.0.0.1:PORT): a loopback name
    // with any port is this server; only foreign names (DNS rebinding) are refused.
    expect((await get(`/?token=${server.token}`, { Host: `127.0.0.1:${server.port + 1}` })).status).toBe(200);
    expect((await get(`/?token=${server.token}`, { Host: `127.0.0.1:${server.port + 1}`, Origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(200);
    expect((await get(`/?token=${server.token}`, { Host: `127.0.0.1:${server.port + 1}`, Origin: `http://127.0.0.1:${server.port}` })).status).toBe(403);
    expect((await get(`/?token=${server.token}`, { Host: `evil.example:${server.port + 1}` })).status).toBe(403);
    const originRefused = await get(`/?token=${server.token}`, { Origin: 'http://evil.example' });
    expect([originRefused.status, originRefused.body]).toEqual([403, expect.stringContaining('Origin "http://evil.example"')]);
    expect((await get(`/?token=${server.token}`, { Origin: `http://${base}` })).status).toBe(200);
    expect((await get(`/?token=${server.token}`, { Host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('refuses WebSocket upgrades without the token, with a wrong one, or from a foreign Origin or Host', async () => {
    expect(await openSocket('')).toBe(401);
    expect(await openSocket('?token=wrong')).toBe(401);
    expect(await openSocket(`?token=${server.token}`, { Origin: 'http://evil.example' })).toBe(403);
    expect(await openSocket(`?token=${server.token}`, { Host: `evil.example:${server.port}` })).toBe(403);
  });

  it('answers StudioApi calls over an authorised WebSocket and refuses bad ones with their reason', async () => {
    const ws = await openSocket(`?token=${server.token}`, { Origin: `http://${base}` });
    expect(ws).toBeInstanceOf(WebSocket);
    const studio = createClient(createSocketChannel(ws as unknown as SocketLike));
    await expect(studio.listHistory()).resolves.toEqual({ entries: [] });
    await expect(studio.openHistory({ id: 'nope' })).rejects.toMatchObject({ kind: 'input', message: expect.stringContaining('history id') });
    await expect(studio.compare({ text: 'x', profileA: 'eager', profileB: 'grap' })).rejects.toMatchObject({ kind: 'profile' });
    (ws as WebSocket).close();
  });

  it('refuses to bind a non-loopback address without --allow-remote', async () => {
    await expect(startStudioServer({ studio: host, staticDir: '.', host: '0.0.0.0' })).rejects.toThrow(/--allow-remote/);
  });
});
