import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../electron/common/api/create-client.js';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import type { StudioEvents } from '../../../electron/common/api/events.js';
import type { StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { InputError, ParityError } from '../../../electron/common/errors.js';
import { createIpcChannel, createIpcStudio, type IpcRendererLike } from '../../../electron/preload/studio-bridge.js';
import { historySelectors } from '../../../renderer/src/store/history/history-selectors.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';
import { ipcTransport } from '../../../renderer/src/transport/ipc-transport.js';

const ID = '20250101-000000-abcdef';
const DIR = `/home/me/exports/${ID}`;

/**
 * The contextBridge as Electron documents it (docs/api/context-bridge.md, "Parameter / Error / Return
 * Type support"): functions are proxied, data is copied, and a thrown error is re-created in the other
 * world from its message alone (electron/electron#28346), so custom properties such as `kind` are lost.
 */
function bridge<T>(value: T): T {
  const copyError = (e: unknown) => new Error(e instanceof Error ? e.message : String(e));
  if (typeof value === 'function') {
    return ((...args: unknown[]) => {
      let out: unknown;
      try {
        out = (value as (...a: unknown[]) => unknown)(...args.map(bridge));
      } catch (e) {
        throw copyError(e);
      }
      return out instanceof Promise ? out.then(bridge, (e: unknown) => Promise.reject(copyError(e))) : bridge(out);
    }) as T;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bridge(v)])) as T;
  }
  return structuredClone(value);
}

/** ipcRenderer over main's dispatch, replies structured-cloned as IPC does; events from the host double. */
function fakeIpc(host: StudioHandlers, events: TypedEmitter<StudioEvents>): IpcRendererLike {
  return {
    invoke: async (channel, request) => structuredClone(await dispatch(host, channel.replace(/^studio:/, ''), request)),
    on: (_channel, listener) => void events.on('progress', (...args) => listener({}, 'progress', args)),
    removeListener: () => undefined,
  };
}

/** A host whose export refuses an existing folder as writeFixtureFolder does. */
function host(): { host: StudioHandlers; events: TypedEmitter<StudioEvents> } {
  const events = new TypedEmitter<StudioEvents>();
  const exported = new Set<string>();
  const handlers = {
    on: events.on.bind(events),
    exportFixture: async ({ dir, overwrite }: { dir: string; overwrite: boolean }) => {
      if (exported.has(dir) && !overwrite) throw new InputError(`${dir} already exists; choose Replace to replace it`, dir, 'exists');
      exported.add(dir);
      return { dir, files: ['a.wav'] };
    },
  } as unknown as StudioHandlers;
  return { host: handlers, events };
}

describe('desktop transport: the StudioApi is built in the page on the preload’s channel', () => {
  it('a StudioApi built in the preload loses the error’s kind and reason at the bridge (why the channel is exposed instead)', async () => {
    const h = host();
    const studio = bridge(createIpcStudio(fakeIpc(h.host, h.events)));
    await studio.exportFixture({ id: ID, dir: DIR, overwrite: false });
    const refusal = await studio.exportFixture({ id: ID, dir: DIR, overwrite: false }).then(() => undefined, (e: unknown) => e);
    expect(refusal).not.toBeInstanceOf(ParityError);
    expect((refusal as { reason?: string }).reason).toBeUndefined();
  });

  it('over the bridged channel a refusal arrives as a ParityError with kind, where and reason; events arrive', async () => {
    const h = host();
    const transport = ipcTransport({ studioChannel: bridge(createIpcChannel(fakeIpc(h.host, h.events))) })!;
    expect(transport.kind).toBe('desktop');
    await transport.studio.exportFixture({ id: ID, dir: DIR, overwrite: false });
    const refusal = await transport.studio.exportFixture({ id: ID, dir: DIR, overwrite: false }).then(() => undefined, (e: unknown) => e);
    expect(refusal).toBeInstanceOf(ParityError);
    expect(refusal).toMatchObject({ kind: 'input', where: DIR, reason: 'exists' });
    const seen: string[] = [];
    transport.studio.on('progress', (jobId) => seen.push(jobId));
    h.events.emit('progress', 'job-1', { phase: 'A', step: 1, totalSteps: 2, fraction: 0.25 });
    expect(seen).toEqual(['job-1']);
  });

  it('so the desktop app asks before replacing an existing export folder', async () => {
    const h = host();
    const transport = ipcTransport({ studioChannel: bridge(createIpcChannel(fakeIpc(h.host, h.events))) })!;
    const shell = { chooseExportDir: async () => ({ path: DIR }) } as unknown as NonNullable<typeof transport.shell>;
    const store = createStudioStore(transport.studio, undefined, shell);
    store.getState().showComparison({ historyId: ID, report: {} } as never);
    await store.getState().exportCurrent();
    await store.getState().exportCurrent();
    expect(historySelectors.pendingOverwrite(store.getState())).toEqual({ dir: DIR });
  });

  it('without a preload channel there is no desktop transport (browser mode)', () => {
    expect(ipcTransport({})).toBeUndefined();
  });
});
