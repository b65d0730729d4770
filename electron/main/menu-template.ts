/** Commands the menu sends to the renderer (`studioShell.onCommand`). */
export type MenuCommand = 'import-wavs' | 'export-fixture' | 'synthesize' | 'cancel';

export interface MenuItem {
  label?: string;
  role?: string;
  accelerator?: string;
  type?: 'separator';
  submenu?: MenuItem[];
  click?: () => void;
}

/** The application menu with keyboard accelerators; plain data so it is tested without Electron. */
export function menuTemplate(send: (command: MenuCommand) => void, isMac: boolean): MenuItem[] {
  return [
    ...(isMac ? [{ role: 'appMenu' }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Import WAV Pair…', accelerator: 'CmdOrCtrl+O', click: () => send('import-wavs') },
        { label: 'Export Fixture…', accelerator: 'CmdOrCtrl+E', click: () => send('export-fixture') },
        { type: 'separator' },
        { role: isMac ? 'close' : 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&Studio',
      submenu: [
        { label: 'Synthesize A/B', accelerator: 'CmdOrCtrl+Enter', click: () => send('synthesize') },
        { label: 'Cancel', accelerator: 'CmdOrCtrl+.', click: () => send('cancel') },
      ],
    },
    {
      label: '&View',
      submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
  ];
}
