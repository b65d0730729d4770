import { app, BrowserWindow, dialog, ipcMain, Menu, protocol } from 'electron';
import { join } from 'node:path';
import { SHELL_COMMAND_CHANNEL } from '../common/api/ipc-channels.js';
import { StudioHost } from '../host/studio-host.js';
import { APP_INDEX_URL, APP_SCHEME, isAppUrl, readAppFile } from './app-protocol.js';
import { forwardStudioEvents, registerStudioIpc } from './ipc.js';
import { menuTemplate } from './menu-template.js';
import { DialogGrants, withGrantedPathsOnly } from './dialog-grants.js';
import { distDir } from './paths.js';
import { registerShellIpc } from './shell-ipc.js';
import { denyPermissions, guardContents, secureWebPreferences } from './window-guards.js';

/**
 * The Electron shell, kept thin: one window on app://studio/, the menu, dialogs, and StudioApi over IPC.
 * Everything it wires is tested without the Electron binary (ipc.ts, window-guards.ts, ...).
 */
const rendererDir = join(distDir(), 'renderer');
const preload = join(distDir(), 'preload', 'preload.cjs');
const dataDirFlag = process.argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);
const bundleFlag = process.argv.find((a) => a.startsWith('--bundle='))?.slice('--bundle='.length);

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

app.whenReady().then(() => {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = await readAppFile(request.url, rendererDir);
    if (!file.ok) return new Response(file.line, { status: file.status });
    return new Response(file.body as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': file.type } });
  });
  // A packaged app carries the prebuilt demo bundle in its resources (electron-builder.yml extraResources).
  const packagedDemo = app.isPackaged ? join(process.resourcesPath, 'demo-bundle') : undefined;
  const studio = new StudioHost({ dataDir: dataDirFlag ?? app.getPath('userData'), bundleDir: bundleFlag ?? packagedDemo });
  const grants = new DialogGrants();
  registerStudioIpc(ipcMain, withGrantedPathsOnly(studio, grants), isAppUrl);
  registerShellIpc(ipcMain, dialog, isAppUrl, grants);

  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    title: 'TTS Parity Studio',
    show: false,
    webPreferences: secureWebPreferences(preload),
  });
  guardContents(window.webContents, (message) => console.warn(`studio: ${message}`));
  denyPermissions(window.webContents.session);
  const stopEvents = forwardStudioEvents(studio, window.webContents);
  const send = (command: string) => window.webContents.send(SHELL_COMMAND_CHANNEL, command);
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(send, process.platform === 'darwin') as Electron.MenuItemConstructorOptions[]));
  window.once('ready-to-show', () => window.show());
  window.on('closed', stopEvents);
  void window.loadURL(APP_INDEX_URL);

  app.on('window-all-closed', () => {
    void studio.dispose().finally(() => app.quit());
  });
});

