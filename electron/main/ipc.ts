import { dispatch, type Envelope } from '../common/api/create-client.js';
import type { Disposer } from '../common/api/event-emitter.js';
import { EVENT_NAMES } from '../common/api/events.js';
import { STUDIO_EVENT_CHANNEL, studioChannel } from '../common/api/ipc-channels.js';
import { METHOD_NAMES } from '../common/api/methods.js';
import type { StudioHandlers } from '../common/api/studio-api.js';

/** The slice of Electron's ipcMain and IpcMainInvokeEvent this file uses, so tests need no Electron. */
export interface IpcMainLike {
  handle(channel: string, handler: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}
export interface InvokeEventLike {
  senderFrame: { url: string } | null;
}
export interface WebContentsLike {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * Serves every StudioApi method as `studio:<name>` (after VS Code's `ProxyChannel.fromService`): the
 * sender frame must be the app, the argument is parsed with the method's zod schema (in `dispatch`),
 * and the reply is an Envelope so errors keep their kind across the bridge.
 */
export function registerStudioIpc(ipcMain: IpcMainLike, studio: StudioHandlers, isAppUrl: (url: string) => boolean): Disposer {
  for (const name of METHOD_NAMES) {
    const channel = studioChannel(name);
    ipcMain.handle(channel, async (event, request): Promise<Envelope> => {
      const url = event.senderFrame?.url ?? '';
      if (!isAppUrl(url)) {
        return { ok: false, error: { kind: 'input', message: `${channel} refused: sender origin "${originOf(url)}" is not the app` } };
      }
      return dispatch(studio, name, request);
    });
  }
  return () => METHOD_NAMES.forEach((name) => ipcMain.removeHandler(studioChannel(name)));
}

/** Sends every host event to one window as `studio:event` (name, args) until the returned disposer runs. */
export function forwardStudioEvents(studio: StudioHandlers, contents: WebContentsLike): Disposer {
  const offs = EVENT_NAMES.map((name) =>
    studio.on(name, (...args: unknown[]) => {
      if (!contents.isDestroyed()) contents.send(STUDIO_EVENT_CHANNEL, name, args);
    }),
  );
  return () => offs.forEach((off) => off());
}

function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? `${u.protocol}//${u.host}` : u.origin;
  } catch {
    return url || '(none)';
  }
}
