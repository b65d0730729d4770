import { ParityError } from '../errors.js';
import type { ClientChannel, Envelope } from './create-client.js';
import { parseEnvelope } from './envelope.js';
import type { MethodName } from './methods.js';
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
    closedReason = `the studio connection closed (code ${event.code}${event.reason ? `: ${event.reason}` : ''})`;
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
      return new Promise<unknown>((resolve) => {
        pending.set(id, resolve);
        socket.send(encodeFrame({ t: 'call', id, method, request }));
      }).then((reply) => parseEnvelope(reply, `WebSocket reply to ${method}`));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
