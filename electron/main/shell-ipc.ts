import { SHELL_CHOOSE_EXPORT_DIR_CHANNEL, SHELL_OPEN_WAVS_CHANNEL, ShellPath, ShellPaths } from '../common/api/ipc-channels.js';
import type { DialogGrants } from './dialog-grants.js';
import type { IpcMainLike } from './ipc.js';

/** The slice of Electron's `dialog` used here. */
export interface DialogLike {
  showOpenDialog(options: object): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(options: object): Promise<{ canceled: boolean; filePath?: string }>;
}

/**
 * Native dialogs for the desktop shell (`window.studioShell`): they return paths that the renderer
 * then passes to StudioApi (`importWavs({a: {path}})`, `exportFixture({dir})`), and only those: each
 * path a dialog returns is granted (dialog-grants.ts). Same sender check.
 */
export function registerShellIpc(ipcMain: IpcMainLike, dialog: DialogLike, isAppUrl: (url: string) => boolean, grants: DialogGrants): void {
  const guarded = (channel: string, run: () => Promise<unknown>) =>
    ipcMain.handle(channel, async (event) => {
      if (!isAppUrl(event.senderFrame?.url ?? '')) throw new Error(`${channel} refused: sender is not the app`);
      return run();
    });
  guarded(SHELL_OPEN_WAVS_CHANNEL, async () => {
    const r = await dialog.showOpenDialog({
      title: 'Choose two WAV files (A, then B)',
      properties: ['openFile', 'multiSelections'],
      filters: [{ name: 'WAV audio', extensions: ['wav', 'wave'] }],
    });
    const paths = r.canceled ? [] : r.filePaths.slice(0, 2);
    paths.forEach((path) => grants.grant(path));
    return ShellPaths.parse({ paths });
  });
  guarded(SHELL_CHOOSE_EXPORT_DIR_CHANNEL, async () => {
    const r = await dialog.showSaveDialog({ title: 'Export fixture folder', defaultPath: 'fixture', buttonLabel: 'Export' });
    if (r.canceled || !r.filePath) return ShellPath.parse({});
    grants.grant(r.filePath);
    return ShellPath.parse({ path: r.filePath });
  });
}
