import { z } from 'zod';
import { createClient, type ClientChannel, type Envelope } from '../common/api/create-client.js';
import { parseEnvelope } from '../common/api/envelope.js';
import {
  SHELL_CHOOSE_EXPORT_DIR_CHANNEL,
  SHELL_COMMAND_CHANNEL,
  SHELL_OPEN_WAVS_CHANNEL,
  STUDIO_EVENT_CHANNEL,
  ShellPath,
  ShellPaths,
  studioChannel,
} from '../common/api/ipc-channels.js';
import { METHOD_NAMES, type MethodName } from '../common/api/methods.js';
import type { StudioApi } from '../common/api/studio-api.js';
import { SHELL_COMMANDS, type StudioShell } from '../common/api/studio-shell.js';

export type { StudioShell };

/** The slice of ipcRenderer the bridge uses, so tests need no Electron. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void;
}

const KNOWN_METHODS: ReadonlySet<string> = new Set(METHOD_NAMES);

/**
 * `window.studioChannel`: StudioApi calls and events over Electron IPC, as envelopes checked here. The
 * renderer builds the StudioApi on it (`createClient`, which parses each value with the method's
 * response schema: two checks, as Signal's preloads do). Errors travel as envelope data, not as thrown
 * errors, because the contextBridge copies a thrown error's message only: a ParityError's kind, where
 * and reason would not reach the page. The renderer never sees ipcRenderer.
 */
export function createIpcChannel(ipc: IpcRendererLike): ClientChannel {
  return {
    async call(method: MethodName, request: unknown): Promise<Envelope> {
      // The page may pass any string: only StudioApi methods reach IPC, anything else is refused here by name.
      if (!KNOWN_METHODS.has(method)) {
        return { ok: false, error: { kind: 'input', message: `studioChannel.call refused: "${String(method)}" is not a StudioApi method` } };
      }
      return parseEnvelope(await ipc.invoke(studioChannel(method), request), `IPC reply to ${method}`);
    },
    subscribe(listener) {
      const onEvent = (_event: unknown, name: unknown, args: unknown) => {
        if (typeof name === 'string' && Array.isArray(args)) listener(name, args);
      };
      ipc.on(STUDIO_EVENT_CHANNEL, onEvent as (event: unknown, ...args: unknown[]) => void);
      return () => ipc.removeListener(STUDIO_EVENT_CHANNEL, onEvent as (event: unknown, ...args: unknown[]) => void);
    },
  };
}

/** The StudioApi over Electron IPC in one context (tests, tools); the page builds it on `studioChannel`. */
export function createIpcStudio(ipc: IpcRendererLike): StudioApi {
  return createClient(createIpcChannel(ipc));
}

export function createStudioShell(ipc: IpcRendererLike): StudioShell {
  return {
    openWavs: async () => ShellPaths.parse(await ipc.invoke(SHELL_OPEN_WAVS_CHANNEL)),
    chooseExportDir: async () => ShellPath.parse(await ipc.invoke(SHELL_CHOOSE_EXPORT_DIR_CHANNEL)),
    onCommand(listener) {
      const onCommand = (_event: unknown, command: unknown) => {
        const parsed = z.enum(SHELL_COMMANDS).safeParse(command);
        if (parsed.success) listener(parsed.data);
      };
      ipc.on(SHELL_COMMAND_CHANNEL, onCommand as (event: unknown, ...args: unknown[]) => void);
      return () => ipc.removeListener(SHELL_COMMAND_CHANNEL, onCommand as (event: unknown, ...args: unknown[]) => void);
    },
  };
}
