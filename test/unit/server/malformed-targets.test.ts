import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { parseRequestTarget } from '../../../electron/server/request-target.js';
import { startStudioServer, type RunningServer } from '../../../electron/server/studio-server.js';
import { ensureBuiltFrom } from '../host/ensure-built.js';

// Issue 27 item 1: `GET //[ HTTP/1.1` (and other targets WHATWG URL parsing refuses) ended `parity serve`
// with "TypeError: Invalid URL", before the token was checked. Every malformed target now gets 400 and
// one log line, on plain requests and on upgrades, with and without a token, and the server keeps serving.

let server: RunningServer;
const logged: string[] = [];
// No method is called: every request here is refused before a handler runs.
const studio = { on: () => () => undefined } as unknown as StudioHandlers;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'malformed-targets-'));
  const staticDir = join(root, 'renderer');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>studio</title>');
  server = await startStudioServer({ studio, staticDir, port: 0, log: (line) => logged.push(line) });
});
afterAll(() => server.close());

/** The raw request, as no HTTP client library would send it; resolves to the status line's code (or 'no answer'). */
function rawStatus(target: string, { token, upgrade }: { token: boolean; upgrade: boolean }): Promise<number | 'no answer'> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let reply = '';
    socket.on('data', (d) => (reply += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(reply);
      resolve(m ? Number(m[1]) : 'no answer');
    });
    const headers = [
      `Host: 127.0.0.1:${server.port}`,
      ...(token ? [`Authorization: Bearer ${server.token}`] : []),
      ...(upgrade ? ['Upgrade: websocket', 'Connection: Upgrade', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version: 13'] : ['Connection: close']),
    ];
    socket.write(Buffer.from(`GET ${target} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'));
    // An upgrade refused with 400 is ended by the server; one that was not (a valid /ws) is closed here.
    setTimeout(() => socket.destroy(), 2000).unref();
  });
}

// Hand-picked forms: authority, absolute, asterisk, IPv6 brackets, bad percent escapes, fragments,
// backslashes, userinfo, ports out of range, over-long targets.
const MALFORMED = [
  '//[', '//[::1', '//[x]/ws', '//a:b@c/', '//%', '//%zz', '//:99999/', '//a:-1/', '//@/', '//', '///', '//127.0.0.1/ws',
  '/%', '/%zz', '/%%', '/ws%', '/ws?token=%', '/a%2', '/#', '/a#b', '/ws#x', '*', 'http://[', 'http://x/', 'http:', 'ws://x/ws',
  'a', '?token=x', '\\\\x', '%2F%2F[', `/${'a'.repeat(9000)}`, '/\x80', '/\xff\xfe', '/é',
];

/** Seeded (mulberry32) so a failure is reproducible: targets built from the pieces URL parsers trip on. */
function fuzzTargets(count: number, seed: number): string[] {
  let s = seed >>> 0;
  const random = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pieces = ['/', '//', '[', ']', '%', '%2', '%zz', '%5B', ':', '@', '?', '#', '\\', 'a', '.', '..', '0', 'ws', 'http:', '*', '::1', '99999', '=', '&', '\x7f', '\xe9'];
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join(''));
}
const FUZZED = fuzzTargets(240, 27);

const MODES = [
  { token: false, upgrade: false },
  { token: true, upgrade: false },
  { token: false, upgrade: true },
  { token: true, upgrade: true },
];

async function inBatches<T>(items: T[], size: number, task: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(task));
}

describe('browser mode: a request-target that cannot be parsed', () => {
  it.each(MODES)('hand-picked malformed targets, token %o: 400 each, one log line each, the server still answers', async (mode) => {
    const before = logged.length;
    const statuses: Record<string, number | string> = {};
    await inBatches(MALFORMED, 12, async (target) => void (statuses[target] = await rawStatus(target, mode)));
    expect(statuses).toEqual(Object.fromEntries(MALFORMED.map((t) => [t, 400])));
    expect(logged.length - before).toBe(MALFORMED.length);
    expect(await rawStatus('/', { token: true, upgrade: false })).toBe(200);
  });

  it.each(MODES)('240 fuzzed targets, token %o: every one answered; those the parser refuses get 400 and one line', async (mode) => {
    const before = logged.length;
    const answers: [string, number | string][] = [];
    await inBatches(FUZZED, 12, async (target) => void answers.push([target, await rawStatus(target, mode)]));
    expect(answers.filter(([, status]) => status === 'no answer')).toEqual([]);
    const refused = answers.filter(([target]) => !parseRequestTarget(target).ok);
    expect(refused.length).toBeGreaterThan(100);
    expect(refused.filter(([, status]) => status !== 400)).toEqual([]);
    // One line per 400, whoever refused it (this parser, or Node's own for a byte it never accepts).
    expect(logged.length - before).toBe(answers.filter(([, status]) => status === 400).length);
    expect(await rawStatus('/', { token: true, upgrade: false })).toBe(200);
  });

  it('the log line quotes at most 80 characters of the target', async () => {
    const before = logged.length;
    expect(await rawStatus(`//[${'a'.repeat(200)}`, { token: false, upgrade: false })).toBe(400);
    expect(logged.slice(before)).toEqual([`refused GET "//[${'a'.repeat(77)}": request-target is not a path (expected /path?query)`]);
  });
});

describe('browser mode: the uploads folder goes on any exit', () => {
  // From dist/: a child process that uploads a file and then dies in the way named.
  const EXITS = ['uncaught exception', 'process.exit(3)', 'unhandled rejection'];
  beforeAll(() => ensureBuiltFrom(['electron/server', 'electron/common', 'electron/host']), 180_000);
  it.each(EXITS)('%s: the private uploads folder is removed', (how) => {
    const parent = mkdtempSync(join(tmpdir(), 'uploads-exit-'));
    const die = { 'uncaught exception': 'setTimeout(() => { throw new Error("boom"); })', 'process.exit(3)': 'process.exit(3)', 'unhandled rejection': 'Promise.reject(new Error("boom"))' }[how];
    const script = `
      import { WebSocket } from 'ws';
      import { startStudioServer } from './dist/electron/server/studio-server.js';
      const server = await startStudioServer({ studio: { on: () => () => undefined }, staticDir: '.', port: 0, uploadsIn: ${JSON.stringify(parent)}, log: () => undefined });
      const session = 'exit-test-0123456789';
      const ws = new WebSocket('ws://127.0.0.1:' + server.port + '/ws?token=' + server.token + '&session=' + session);
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      const res = await fetch('http://127.0.0.1:' + server.port + '/upload?name=a.wav&session=' + session, { method: 'POST', body: 'RIFF', headers: { Authorization: 'Bearer ' + server.token } });
      if (res.status !== 200) process.exit(9);
      ${die};`;
    let status = 0;
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'pipe', timeout: 15_000 });
    } catch (error) {
      status = (error as { status: number }).status;
    }
    expect(status).not.toBe(9);
    expect(status).not.toBe(0);
    expect(readdirSync(parent)).toEqual([]);
  });
});
