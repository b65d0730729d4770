import { ParityError } from '../errors.js';
import type { ClientChannel, Envelope } from './create-client.js';
import { parseEnvelope } from './envelope.js';
import type { MethodName } from './methods.js';
import { MAX_MESSAGE_BYTES, MESSAGE_LIMIT_WORDS, MESSAGE_TOO_BIG } from './message-limit.js';
import { decodeFrame, encodeFrame } from './wire-codec.js';

/** What both the browser's WebSocket and the `ws` package offer (no DOM or Node types in common/). */
export interface SocketLike {
  binaryType: string;
  readyState: number;
  send(data: Uint8Array): void;
  close(): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
}

const OPEN = 1;

/**
 * The client end of the WebSocket transport (server end: electron/server/ws-api.ts): numbered calls,
 * replies matched by id, events fanned out. When the socket closes every pending call fails saying so.
 */
export function createSocketChannel(socket: SocketLike): ClientChannel & { closed: Promise<string> } {
  socket.binaryType = 'arraybuffer';
  let nextId = 1;
  const pending = new Map<number, (reply: unknown) => void>();
  const listeners = new Set<(name: string, args: unknown[]) => void>();
  let closedReason: string | undefined;
  let resolveClosed: (reason: string) => void = () => undefined;
  const closed = new Promise<string>((r) => (resolveClosed = r));

  socket.addEventListener('message', (event) => {
    let message: { t?: string; id?: number; name?: string; args?: unknown[] };
    try {
      message = decodeFrame(new Uint8Array(event.data as ArrayBuffer)) as typeof message;
    } catch {
      return;
    }
    if (message.t === 'reply' && typeof message.id === 'number') {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    } else if (message.t === 'event' && typeof message.name === 'string' && Array.isArray(message.args)) {
      for (const listener of listeners) listener(message.name, message.args);
    }
  });
  socket.addEventListener('close', (event) => {
    const why = event.code === MESSAGE_TOO_BIG ? `: a message was larger than ${MESSAGE_LIMIT_WORDS}` : event.reason ? `: ${event.reason}` : '';
    closedReason = `the studio connection closed (code ${event.code}${why})`;
    const failure: Envelope = { ok: false, error: { kind: 'internal', message: closedReason } };
    for (const resolve of pending.values()) resolve(failure);
    pending.clear();
    resolveClosed(closedReason);
  });

  return {
    closed,
    call(method: MethodName, request: unknown): Promise<Envelope> {
      if (closedReason) return Promise.reject(new ParityError('internal', closedReason));
      if (socket.readyState !== OPEN) return Promise.reject(new ParityError('internal', 'the studio connection is not open'));
      const id = nextId++;
      const frame = encodeFrame({ t: 'call', id, method, request });
      // Refused here rather than sent: the server would close the connection, failing every other call.
      if (frame.byteLength > MAX_MESSAGE_BYTES) return Promise.reject(new ParityError('input', `${method}: the request is ${frame.byteLength} bytes, larger than ${MESSAGE_LIMIT_WORDS}`));
      return new Promise<unknown>((resolve) => {
        pending.set(id, resolve);
        socket.send(frame);
      }).then((reply) => parseEnvelope(reply, `WebSocket reply to ${method}`));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
