import { SHELL_CHOOSE_EXPORT_DIR_CHANNEL, SHELL_OPEN_WAVS_CHANNEL, ShellPath, ShellPaths } from '../common/api/ipc-channels.js';
import type { IpcMainLike } from './ipc.js';

/** The slice of Electron's `dialog` used here. */
export interface DialogLike {
  showOpenDialog(options: object): Promise<{ canceled: boolean; filePaths: string[] }>;
  showSaveDialog(options: object): Promise<{ canceled: boolean; filePath?: string }>;
}

/**
 * Native dialogs for the desktop shell (`window.studioShell`): they return paths that the renderer
 * then passes to StudioApi (`importWavs({a: {path}})`, `exportFixture({dir})`). Same sender check.
 */
export function registerShellIpc(ipcMain: IpcMainLike, dialog: DialogLike, isAppUrl: (url: string) => boolean): void {
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
    return ShellPaths.parse({ paths: r.canceled ? [] : r.filePaths.slice(0, 2) });
  });
  guarded(SHELL_CHOOSE_EXPORT_DIR_CHANNEL, async () => {
    const r = await dialog.showSaveDialog({ title: 'Export fixture folder', defaultPath: 'fixture', buttonLabel: 'Export' });
    return ShellPath.parse(r.canceled || !r.filePath ? {} : { path: r.filePath });
  });
}
