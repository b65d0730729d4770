import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import type { StudioShell } from '../../../electron/common/api/studio-shell.js';

/**
 * What the renderer is given: the StudioApi, whichever transport carries it, and the desktop shell
 * where there is one (native dialogs, menu commands). Components never learn which it is.
 */
export interface Transport {
  studio: StudioApi;
  shell?: StudioShell;
  /** For the status line only, e.g. "desktop" or "browser". */
  kind: 'desktop' | 'browser';
}
