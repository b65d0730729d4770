/**
 * Memory of `parity serve` when one client sends a WebSocket message far past the bound (MAX_MESSAGE_BYTES):
 * a raw client announces one masked binary frame of BENCH_WS_MB (300 by default) and streams its payload
 * 1 MiB at a time (its own memory stays small) while the server's RSS is sampled every 10 ms from /proc.
 * Prints JSON: the server's idle and peak RSS, the close code it sent, and how much it took before closing.
 * Not a timed assertion. Linux only (reads /proc).
 *
 *   npx tsx test/e2e/bench-ws-message.ts
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { buildOnce } from './build-once.js';
import { startServe } from './serve-process.js';

const MB = 1024 * 1024;
const messageMb = Number(process.env.BENCH_WS_MB ?? 300);

buildOnce();
const served = await startServe();
await new Promise((r) => setTimeout(r, 1500));
const pid = served.child.pid!;
const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const idleMb = rssMb();
let peakMb = idleMb;
const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb())), 10);

const socket = connect(served.port, '127.0.0.1');
await new Promise((r) => socket.once('connect', r));
socket.write(
  `GET /ws?token=${served.token} HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
);
await new Promise((r) => socket.once('data', r));
let closeCode: number | null = null;
let closed = false;
socket.on('data', (d: Buffer) => {
  if (d[0] === 0x88 && d.length >= 4) closeCode = d.readUInt16BE(2);
});
socket.on('close', () => (closed = true));
socket.on('error', () => (closed = true));
// RFC 6455 §5.2: FIN + binary opcode, mask bit + 127 (a 64-bit length follows), then a zero mask key.
const head = Buffer.alloc(14);
head[0] = 0x82;
head[1] = 0xff;
head.writeBigUInt64BE(BigInt(messageMb * MB), 2);
socket.write(head);
const chunk = Buffer.alloc(MB);
let sent = 0;
while (sent < messageMb * MB && !closed) {
  if (!socket.write(chunk)) await new Promise((r) => (socket.once('drain', r), socket.once('close', r)));
  sent += chunk.length;
}
await new Promise((r) => setTimeout(r, 1500));
clearInterval(timer);
socket.destroy();
await served.stop();
console.log(
  JSON.stringify(
    {
      bench: 'parity serve RSS while one client sends a WebSocket message past the bound',
      messageMb,
      serverIdleMb: Math.round(idleMb),
      serverPeakMb: Math.round(peakMb),
      growthMb: Math.round(peakMb - idleMb),
      closeCode,
      sentMbBeforeClose: Math.round(sent / MB),
    },
    null,
    2,
  ),
);
