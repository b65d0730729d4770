import { randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { ensureBuilt } from '../host/ensure-built.js';
import { connectBrowserClient } from './browser-client.js';

let server: RunningServer;
let host: StudioHost;
const logged: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  const root = mkdtempSync(join(tmpdir(), 'malformed-frames-'));
  const staticDir = join(root, 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>studio</title>');
  host = new StudioHost({ dataDir: join(root, 'data') });
  server = await startStudioServer({ studio: host, staticDir, port: 0, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await server.close();
  await host.dispose();
});

/** A token-authenticated WebSocket upgrade by hand, so the test can then write frames no client library would. */
function upgradedSocket(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () =>
      socket.write(
        `GET /ws?token=${server.token} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.once('data', (reply) => (reply.toString('latin1').startsWith('HTTP/1.1 101') ? resolve(socket) : reject(new Error(reply.toString('latin1')))));
  });
}

/** Writes the frame and resolves when the server has closed the connection. */
function sendAndAwaitClose(socket: Socket, frame: Buffer): Promise<void> {
  return new Promise((resolve) => {
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
    socket.write(frame);
  });
}

const MASK = Buffer.from([0, 0, 0, 0]);
// RFC 6455 §5.2 frame layouts. Each breaks the protocol in a way the ws library answers with 'error'.
const BAD_FRAMES: Array<[string, Buffer]> = [
  ['an unmasked client frame (§5.1: clients must mask)', Buffer.from([0x82, 0x02, 0x00, 0x00])],
  ['reserved opcode 3', Buffer.concat([Buffer.from([0x83, 0x80]), MASK])],
  ['invalid UTF-8 in a text frame', Buffer.concat([Buffer.from([0x81, 0x82]), MASK, Buffer.from([0xff, 0xfe])])],
  // 127 = 64-bit length follows; 1 GiB is past the server's maxPayload (MAX_MESSAGE_BYTES): refused from the header alone.
  ['a 14-byte header announcing 1 GiB', Buffer.concat([Buffer.from([0x82, 0xff]), Buffer.from([0, 0, 0, 0, 0x40, 0, 0, 0]), MASK])],
];

describe('browser mode: a malformed WebSocket frame ends only its own connection', () => {
  it.each(BAD_FRAMES)('%s: that socket is closed, the server keeps serving other clients', async (_what, frame) => {
    const { ws, studio } = await connectBrowserClient(server);
    const before = logged.length;
    await sendAndAwaitClose(await upgradedSocket(), frame);
    // The client connected before the bad frame still works, and so does a new one.
    expect(Array.isArray((await studio.listHistory({})).entries)).toBe(true);
    const late = await connectBrowserClient(server);
    expect(Array.isArray((await late.studio.listHistory({})).entries)).toBe(true);
    ws.close();
    late.ws.close();
    expect(logged.length).toBe(before + 1);
    expect(logged[before]).toMatch(/^closed a WebSocket connection (that broke the protocol: |whose message was larger than the 4 MiB)/);
  });
});
