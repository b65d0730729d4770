import { beforeAll, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  listeners: new Map<string, (event: unknown, ...args: unknown[]) => void>(),
  replies: new Map<string, unknown>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, api: unknown) => void state.exposed.set(name, api) },
  ipcRenderer: {
    invoke: async (channel: string, ...args: unknown[]) => {
      state.invoked.push([channel, ...args]);
      return state.replies.get(channel);
    },
    on: (channel: string, l: (event: unknown, ...args: unknown[]) => void) => void state.listeners.set(channel, l),
    removeListener: (channel: string) => void state.listeners.delete(channel),
  },
}));

type Studio = import('../../../electron/common/api/studio-api.js').StudioApi;
type Channel = import('../../../electron/common/api/create-client.js').ClientChannel;
type Shell = import('../../../electron/preload/studio-bridge.js').StudioShell;

let studio: Studio;
beforeAll(async () => {
  await import('../../../electron/preload/preload.js');
  // The page builds the StudioApi on the exposed channel (renderer/src/transport/ipc-transport.ts).
  const { createClient } = await import('../../../electron/common/api/create-client.js');
  studio = createClient(state.exposed.get('studioChannel') as Channel);
});

describe('preload (mocked electron)', () => {
  it('exposes exactly window.studioChannel and window.studioShell, never ipcRenderer', () => {
    expect([...state.exposed.keys()].sort()).toEqual(['studioChannel', 'studioShell']);
    expect(Object.keys(state.exposed.get('studioChannel') as object).sort()).toEqual(['call', 'subscribe']);
  });

  it('calls studio:<method> and parses the reply with the response schema', async () => {
    state.replies.set('studio:compare', { ok: true, value: { jobId: 'job-4' } });
    await expect(studio.compare({ text: 'hi', profileA: 'eager', profileB: 'graph' })).resolves.toEqual({ jobId: 'job-4' });
    expect(state.invoked.at(-1)).toEqual(['studio:compare', { text: 'hi', profileA: 'eager', profileB: 'graph' }]);
    state.replies.set('studio:listHistory', { ok: true, value: { entries: [{ id: 'bad' }] } });
    await expect(studio.listHistory()).rejects.toThrow(/history id/);
    state.replies.set('studio:bundleInfo', { ok: false, error: { kind: 'bundle', message: 'bundle.json: missing' } });
    await expect(studio.bundleInfo()).rejects.toMatchObject({ kind: 'bundle', message: 'bundle.json: missing' });
    state.replies.set('studio:cancel', 'not an envelope');
    await expect(studio.cancel({ jobId: 'job-4' })).rejects.toThrow();
  });

  it('refuses a method that is not a StudioApi method, by name, without any IPC', async () => {
    const channel = state.exposed.get('studioChannel') as Channel;
    const before = state.invoked.length;
    await expect(channel.call('shell:openWavs' as never, {})).resolves.toEqual({
      ok: false,
      error: { kind: 'input', message: 'studioChannel.call refused: "shell:openWavs" is not a StudioApi method' },
    });
    expect(state.invoked.length).toBe(before);
  });

  it('delivers parsed events and drops malformed ones; on() returns its disposer', () => {
    const seen: unknown[] = [];
    const off = studio.on('jobFinished', (jobId, outcome) => seen.push([jobId, outcome.state]));
    const emit = state.listeners.get('studio:event')!;
    emit({}, 'jobFinished', ['job-4', { state: 'done' }]);
    emit({}, 'jobFinished', ['job-4', { state: 'exploded' }]);
    emit({}, 'progress', ['job-4', { phase: 'A', step: 1, totalSteps: 2, fraction: 0.5 }]);
    off();
    expect(state.listeners.has('studio:event')).toBe(false);
    expect(seen).toEqual([['job-4', 'done']]);
  });

  it('studioShell returns dialog paths and menu commands, checked', async () => {
    const shell = state.exposed.get('studioShell') as Shell;
    state.replies.set('shell:openWavs', { paths: ['/a.wav', '/b.wav'] });
    await expect(shell.openWavs()).resolves.toEqual({ paths: ['/a.wav', '/b.wav'] });
    const commands: string[] = [];
    shell.onCommand((c) => commands.push(c));
    state.listeners.get('shell:command')!({}, 'synthesize');
    state.listeners.get('shell:command')!({}, 'rm -rf');
    expect(commands).toEqual(['synthesize']);
  });
});
