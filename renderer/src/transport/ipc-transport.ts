import { createClient, type ClientChannel } from '../../../electron/common/api/create-client.js';
import type { StudioShell } from '../../../electron/common/api/studio-shell.js';
import type { Transport } from './transport.js';

/**
 * Electron: the preload has exposed `window.studioChannel` (envelopes, checked) and `window.studioShell`.
 * The StudioApi is built here, in the page, so a failed call throws a ParityError with the host's kind,
 * where and reason (a ParityError thrown in the preload would cross the contextBridge as its message only).
 */
export function ipcTransport(target: unknown = globalThis): Transport | undefined {
  const w = target as { studioChannel?: ClientChannel; studioShell?: StudioShell };
  return w.studioChannel ? { studio: createClient(w.studioChannel), shell: w.studioShell, kind: 'desktop' } : undefined;
}
