import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../electron/common/api/studio-shell.js';
import type { Transport } from './transport.js';

/** Electron: the preload has already exposed `window.studio` (checked replies) and `window.studioShell`. */
export function ipcTransport(): Transport | undefined {
  const w = window as unknown as { studio?: StudioApi; studioShell?: StudioShell };
  return w.studio ? { studio: w.studio, shell: w.studioShell, kind: 'desktop' } : undefined;
}
