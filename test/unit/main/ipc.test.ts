import { describe, expect, it } from 'vitest';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import type { StudioEvents } from '../../../electron/common/api/events.js';
import { METHOD_NAMES } from '../../../electron/common/api/methods.js';
import type { StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { isAppUrl } from '../../../electron/main/app-protocol.js';
import { forwardStudioEvents, registerStudioIpc, type InvokeEventLike } from '../../../electron/main/ipc.js';

type Handler = (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>;

function fakeIpcMain() {
  const handlers = new Map<string, Handler>();
  return {
    handlers,
    handle: (channel: string, handler: Handler) => void handlers.set(channel, handler),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
}

function recordingStudio() {
  const calls: [string, unknown][] = [];
  const events = new TypedEmitter<StudioEvents>();
  const studio = {
    on: events.on.bind(events),
    listHistory: async (r: unknown) => (calls.push(['listHistory', r]), { entries: [] }),
    compare: async (r: unknown) => (calls.push(['compare', r]), { jobId: 'job-1' }),
  } as unknown as StudioHandlers;
  return { studio, calls, events };
}

const app = { senderFrame: { url: 'app://studio/index.html' } };

describe('Electron IPC wiring (plain functions, no Electron binary)', () => {
  it('registers one studio:<method> handler per StudioApi method and removes them all', () => {
    const ipc = fakeIpcMain();
    const dispose = registerStudioIpc(ipc, recordingStudio().studio, isAppUrl);
    expect([...ipc.handlers.keys()].sort()).toEqual(METHOD_NAMES.map((n) => `studio:${n}`).sort());
    dispose();
    expect(ipc.handlers.size).toBe(0);
  });

  it('refuses foreign senders naming the channel and origin, without calling the host', async () => {
    const ipc = fakeIpcMain();
    const { studio, calls } = recordingStudio();
    registerStudioIpc(ipc, studio, isAppUrl);
    const handler = ipc.handlers.get('studio:listHistory')!;
    await expect(handler({ senderFrame: { url: 'https://x.example/page' } }, {})).resolves.toEqual({
      ok: false,
      error: { kind: 'input', message: 'studio:listHistory refused: sender origin "https://x.example" is not the app' },
    });
    await expect(handler({ senderFrame: { url: 'file:///etc/passwd' } }, {})).resolves.toMatchObject({ ok: false });
    await expect(handler({ senderFrame: null }, {})).resolves.toMatchObject({ ok: false, error: { message: expect.stringContaining('"(none)"') } });
    expect(calls).toEqual([]);
  });

  it('validates arguments with the method schema before the host sees them', async () => {
    const ipc = fakeIpcMain();
    const { studio, calls } = recordingStudio();
    registerStudioIpc(ipc, studio, isAppUrl);
    const compare = ipc.handlers.get('studio:compare')!;
    await expect(compare(app, { text: 'hi', profileA: 'eager', profileB: 'graph,ep=tpu' })).resolves.toMatchObject({ ok: false, error: { kind: 'profile' } });
    await expect(compare(app, { text: '', profileA: 'eager', profileB: 'graph' })).resolves.toMatchObject({ ok: false, error: { kind: 'input', message: expect.stringContaining('prompt is empty') } });
    await expect(compare(app, { text: 'hi', profileA: 'eager', profileB: 'graph' })).resolves.toEqual({ ok: true, value: { jobId: 'job-1' } });
    expect(calls).toEqual([['compare', expect.objectContaining({ text: 'hi', seed: 0 })]]);
  });

  it('forwards host events to the window until disposed, and not to a destroyed one', () => {
    const { studio, events } = recordingStudio();
    const sent: unknown[] = [];
    let destroyed = false;
    const stop = forwardStudioEvents(studio, { isDestroyed: () => destroyed, send: (...a) => sent.push(a) });
    events.emit('progress', 'job-1', { phase: 'A', step: 1, totalSteps: 5, fraction: 0.1 });
    destroyed = true;
    events.emit('historyChanged');
    destroyed = false;
    stop();
    events.emit('historyChanged');
    expect(sent).toEqual([['studio:event', 'progress', ['job-1', { phase: 'A', step: 1, totalSteps: 5, fraction: 0.1 }]]]);
  });
});
