import { describe, expect, it } from 'vitest';
import { createClient } from '../../../electron/common/api/create-client.js';
import { parseEnvelope } from '../../../electron/common/api/envelope.js';
import { createSocketChannel, type SocketLike } from '../../../electron/common/api/socket-channel.js';
import { decodeFrame, encodeFrame } from '../../../electron/common/api/wire-codec.js';
import { ParityError } from '../../../electron/common/errors.js';

/** A socket double: records sent frames, lets the test deliver replies and close it. */
function fakeSocket() {
  const handlers: Record<string, ((event: never) => void)[]> = { message: [], close: [] };
  const sent: { id: number; method: string }[] = [];
  const socket: SocketLike = {
    binaryType: 'blob',
    readyState: 1,
    send: (data) => void sent.push(decodeFrame(data) as { id: number; method: string }),
    close: () => undefined,
    addEventListener: (type: string, listener: (event: never) => void) => void handlers[type].push(listener),
  };
  const deliver = (message: unknown) => {
    const bytes = encodeFrame(message);
    const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    for (const l of handlers.message) l({ data } as never);
  };
  return { socket, sent, deliver };
}

describe('parseEnvelope (one schema for the IPC and WebSocket replies)', () => {
  it('passes both envelope shapes through and drops transport fields', () => {
    expect(parseEnvelope({ t: 'reply', id: 3, ok: true, value: { jobId: 'job-1' } }, 'test')).toEqual({ ok: true, value: { jobId: 'job-1' } });
    const failure = { ok: false, error: { kind: 'wav', message: 'a.wav: not RIFF', where: 'a.wav' } };
    expect(parseEnvelope(failure, 'test')).toEqual(failure);
  });

  it('turns a malformed reply into an internal ParityError naming the transport and what is wrong', () => {
    for (const bad of ['not an envelope', null, { ok: 'yes' }, { ok: false, error: { kind: 'nonsense', message: 'x' } }, { ok: false, error: {} }]) {
      let caught: unknown;
      try {
        parseEnvelope(bad, 'IPC reply to cancel');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ParityError);
      expect(caught).toMatchObject({ kind: 'internal', message: expect.stringMatching(/^IPC reply to cancel: the reply is not an envelope/) });
    }
  });
});

describe('createSocketChannel checks replies', () => {
  it('resolves a well-formed reply and rejects a malformed one with a clear error, not a crash later', async () => {
    const { socket, sent, deliver } = fakeSocket();
    const studio = createClient(createSocketChannel(socket));
    const good = studio.listHistory();
    deliver({ t: 'reply', id: sent[0].id, ok: true, value: { entries: [] } });
    await expect(good).resolves.toEqual({ entries: [] });

    const bad = studio.cancel({ jobId: 'job-4' });
    deliver({ t: 'reply', id: sent[1].id, ok: false, error: { message: 'kind is missing' } });
    await expect(bad).rejects.toMatchObject({ kind: 'internal', message: expect.stringContaining('WebSocket reply to cancel: the reply is not an envelope') });
  });
});
