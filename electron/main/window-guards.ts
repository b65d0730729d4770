import { isAppUrl } from './app-protocol.js';

/** The slice of BrowserWindow's webContents the guards use. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/** Options every studio window is created with: the renderer gets no Node and runs sandboxed. */
export function secureWebPreferences(preload: string) {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  } as const;
}

/**
 * The window shows the app and nothing else: navigation away, redirects, new windows and webviews
 * are refused. External links would go through `shell.openExternal` after a check, not by navigation.
 */
export function guardContents(contents: GuardedContents, log: (message: string) => void = () => undefined): void {
  const block = (event: { preventDefault(): void }, url: string) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    log(`navigation to ${url} blocked`);
  };
  contents.on('will-navigate', block);
  contents.on('will-redirect', block);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    log(`new window for ${url} blocked`);
    return { action: 'deny' };
  });
}

/** The slice of Electron's Session the permission handlers use. */
export interface PermissionSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
}

/**
 * The studio asks for no permission (camera, microphone, notifications, geolocation, …); Electron's
 * default grants them all, so every request and check is refused here.
 */
export function denyPermissions(session: PermissionSession, log: (message: string) => void = () => undefined): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    log(`permission "${permission}" refused`);
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
}
