import type { WebSocket } from 'ws';
import { dispatch } from '../common/api/create-client.js';
import { EVENT_NAMES } from '../common/api/events.js';
import { MESSAGE_LIMIT_WORDS } from '../common/api/message-limit.js';
import type { StudioHandlers } from '../common/api/studio-api.js';
import { decodeFrame, encodeFrame } from '../common/api/wire-codec.js';

/**
 * StudioApi over one WebSocket. Client → server: `{t: 'call', id, method, request}`; server → client:
 * `{t: 'reply', id, ok, value | error}` and `{t: 'event', name, args}`; every message one binary frame
 * of the wire codec. Requests are parsed by `dispatch` with the method's zod schema.
 */
export function serveSocket(socket: WebSocket, studio: StudioHandlers, log: (line: string) => void): void {
  const send = (message: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(encodeFrame(message));
  };
  const offs = EVENT_NAMES.map((name) => studio.on(name, (...args: unknown[]) => send({ t: 'event', name, args })));
  socket.on('close', () => offs.forEach((off) => off()));
  // A frame that breaks the protocol (unmasked, a reserved opcode, invalid UTF-8, past maxPayload) makes
  // ws emit 'error' and close this socket with the matching code. Without a listener the 'error' event
  // would throw and end `parity serve` for every client and job; with one, only this connection ends.
  socket.on('error', (error: Error & { code?: string }) =>
    log(
      error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
        ? `closed a WebSocket connection whose message was larger than ${MESSAGE_LIMIT_WORDS}`
        : `closed a WebSocket connection that broke the protocol: ${error.message}`,
    ),
  );
  socket.on('message', async (data, isBinary) => {
    let message: { t?: unknown; id?: unknown; method?: unknown; request?: unknown };
    try {
      if (!isBinary) throw new Error('expected a binary frame');
      message = decodeFrame(toBytes(data)) as typeof message;
    } catch (error) {
      send({ t: 'reply', id: null, ok: false, error: { kind: 'input', message: `bad message: ${(error as Error).message}` } });
      return;
    }
    if (message?.t !== 'call' || typeof message.id !== 'number') {
      send({ t: 'reply', id: null, ok: false, error: { kind: 'input', message: 'bad message: expected {t: "call", id: number, method, request}' } });
      return;
    }
    send({ t: 'reply', id: message.id, ...(await dispatch(studio, message.method, message.request)) });
  });
}

function toBytes(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
