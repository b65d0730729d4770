import { describe, expect, it } from 'vitest';
import { createClient, createDirectClient, dispatch } from '../../../electron/common/api/create-client.js';
import { parseEnvelope } from '../../../electron/common/api/envelope.js';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import type { StudioEvents } from '../../../electron/common/api/events.js';
import { createSocketChannel, type SocketLike } from '../../../electron/common/api/socket-channel.js';
import type { StudioApi, StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { decodeFrame, encodeFrame } from '../../../electron/common/api/wire-codec.js';
import { InputError, ParityError, toErrorPayload } from '../../../electron/common/errors.js';
import { createIpcStudio } from '../../../electron/preload/studio-bridge.js';

// A client acts on an error's `reason` (the studio asks before replacing an existing export folder),
// so the field must arrive whichever transport carries the reply; errors without one keep their shape.
const DIR = '/data/exports/20250101-000000-abcdef';

/** A host whose export refuses the folder as writeFixtureFolder does, and whose listHistory fails without a reason. */
function refusingHost(): StudioHandlers {
  const events = new TypedEmitter<StudioEvents>();
  return new Proxy({} as StudioHandlers, {
    get(_t, prop) {
      if (prop === 'on') return events.on.bind(events);
      if (prop === 'exportFixture') return async () => Promise.reject(new InputError(`${DIR} already exists; choose Replace to replace it`, DIR, 'exists'));
      return async () => Promise.reject(new InputError('history folder unreadable', '/data/history'));
    },
  });
}

/** The WebSocket transport end to end in memory: dispatch on the server side, frames both ways. */
function socketClient(host: StudioHandlers): StudioApi {
  const listeners: ((event: { data: unknown }) => void)[] = [];
  const socket: SocketLike = {
    binaryType: 'blob',
    readyState: 1,
    send: (data) => {
      const call = decodeFrame(data) as { id: number; method: string; request: unknown };
      void dispatch(host, call.method, call.request).then((reply) => {
        const bytes = encodeFrame({ t: 'reply', id: call.id, ...reply });
        for (const l of listeners) l({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
      });
    },
    close: () => undefined,
    addEventListener: (type: string, listener: (event: never) => void) => void (type === 'message' && listeners.push(listener as never)),
  };
  return createClient(createSocketChannel(socket));
}

/** The IPC transport as the preload sees it: the reply is structured-cloned, as Electron's IPC does. */
function ipcClient(host: StudioHandlers): StudioApi {
  return createIpcStudio({
    invoke: async (channel, request) => structuredClone(await dispatch(host, channel.replace(/^studio:/, ''), request)),
    on: () => undefined,
    removeListener: () => undefined,
  });
}

const transports: [string, (host: StudioHandlers) => StudioApi][] = [
  ['direct', createDirectClient],
  ['WebSocket', socketClient],
  ['IPC (preload)', ipcClient],
];

describe('an error’s reason crosses every transport', () => {
  for (const [name, client] of transports) {
    it(`${name}: exportFixture's "exists" arrives as a ParityError with reason; other errors have none`, async () => {
      const studio = client(refusingHost());
      const refusal = await studio.exportFixture({ id: '20250101-000000-abcdef', dir: DIR, overwrite: false }).then(() => undefined, (e: unknown) => e);
      expect(refusal).toBeInstanceOf(ParityError);
      expect(refusal).toMatchObject({ kind: 'input', where: DIR, reason: 'exists' });
      const other = await studio.listHistory().then(() => undefined, (e: unknown) => e);
      expect(other).toMatchObject({ kind: 'input', message: 'history folder unreadable', where: '/data/history' });
      expect((other as ParityError).reason).toBeUndefined();
    });
  }

  it('the payload and the envelope carry reason only when set (the old shape otherwise)', async () => {
    expect(toErrorPayload(new InputError('x exists', 'x', 'exists'))).toEqual({ kind: 'input', message: 'x exists', where: 'x', reason: 'exists' });
    expect(toErrorPayload(new InputError('bad', 'x'))).toEqual({ kind: 'input', message: 'bad', where: 'x' });
    expect(await dispatch(refusingHost(), 'listHistory', {})).toEqual({ ok: false, error: { kind: 'input', message: 'history folder unreadable', where: '/data/history' } });
  });

  it('an unknown reason is refused at the boundary like any malformed reply', () => {
    expect(() => parseEnvelope({ ok: false, error: { kind: 'input', message: 'x', reason: 'gone' } }, 'IPC reply to exportFixture')).toThrow(/^IPC reply to exportFixture: the reply is not an envelope/);
  });
});
