import { z } from 'zod';
import type { MethodName } from './methods.js';

/**
 * The Electron IPC channel names and shell reply shapes, shared by the main process (electron/main/)
 * and the preload (electron/preload/), so the two ends cannot drift apart.
 */
export const STUDIO_CHANNEL_PREFIX = 'studio:';
export const STUDIO_EVENT_CHANNEL = 'studio:event';

/** `studio:<method>`: one invoke channel per StudioApi method. */
export function studioChannel(method: MethodName): `studio:${MethodName}` {
  return `${STUDIO_CHANNEL_PREFIX}${method}`;
}

export const SHELL_OPEN_WAVS_CHANNEL = 'shell:openWavs';
export const SHELL_CHOOSE_EXPORT_DIR_CHANNEL = 'shell:chooseExportDir';
/** Main -> renderer: a menu command (one of SHELL_COMMANDS). */
export const SHELL_COMMAND_CHANNEL = 'shell:command';

/** Reply of `shell:openWavs`: the chosen WAV paths (none when cancelled). */
export const ShellPaths = z.object({ paths: z.array(z.string()) });
/** Reply of `shell:chooseExportDir`: the chosen folder, absent when cancelled. */
export const ShellPath = z.object({ path: z.string().optional() });
