import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';

// Two remote servers that both listen on the same port, reached through two SSH tunnels, are two
// localhost origins to the browser, which keeps cookies per host name, not per port: each sends every
// localhost cookie to both. Modelled here by two servers on one port at 127.0.0.1 and 127.0.0.2.
const root = mkdtempSync(join(tmpdir(), 'cookie-per-server-'));
const noHost = { on: () => () => undefined } as unknown as StudioHandlers;
let one: RunningServer;
let two: RunningServer;

beforeAll(async () => {
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>studio</title>');
  one = await startStudioServer({ studio: noHost, staticDir: root, host: '127.0.0.1', port: 0 });
  two = await startStudioServer({ studio: noHost, staticDir: root, host: '127.0.0.2', port: one.port });
});
afterAll(async () => {
  await one.close();
  await two.close();
  rmSync(root, { recursive: true, force: true });
});

function get(server: RunningServer, path: string, cookie?: string): Promise<{ status: number; setCookie: string }> {
  return new Promise((resolve, reject) => {
    const headers = { Host: `localhost:${server.port}`, ...(cookie ? { Cookie: cookie } : {}) };
    const req = request({ host: server.host, port: server.port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, setCookie: String(res.headers['set-cookie'] ?? '').split(';')[0] }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser mode: the token cookie of two servers on the same port', () => {
  it('has a name of its own per server, and each server reads only its own', async () => {
    expect(two.port).toBe(one.port);
    const cookieOne = (await get(one, `/?token=${one.token}`)).setCookie;
    const cookieTwo = (await get(two, `/?token=${two.token}`)).setCookie;
    expect(cookieOne.startsWith(`parity_token_${one.port}_`)).toBe(true);
    expect(cookieTwo.startsWith(`parity_token_${one.port}_`)).toBe(true);
    // Different names: setting one does not overwrite the other in the browser's jar.
    expect(cookieOne.split('=')[0]).not.toBe(cookieTwo.split('=')[0]);
    // The browser sends both to each server; each finds its own.
    expect((await get(one, '/', `${cookieTwo}; ${cookieOne}`)).status).toBe(200);
    expect((await get(two, '/', `${cookieOne}; ${cookieTwo}`)).status).toBe(200);
    // The other server's cookie alone is no token here.
    expect((await get(one, '/', cookieTwo)).status).toBe(401);
    expect((await get(two, '/', cookieOne)).status).toBe(401);
  });
});
