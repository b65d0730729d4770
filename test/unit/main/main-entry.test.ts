import { beforeAll, describe, expect, it, vi } from 'vitest';

// The whole main entry, run against a mocked `electron` (the binary cannot be installed here).
const state = vi.hoisted(() => ({
  handlers: new Map<string, unknown>(),
  windows: [] as { options: Record<string, unknown>; url?: string; contents: Record<string, unknown> }[],
  schemes: [] as unknown[],
  sandbox: false,
  menu: undefined as unknown,
}));

vi.mock('electron', () => {
  class BrowserWindow {
    webContents = {
      on: vi.fn(),
      setWindowOpenHandler: vi.fn(),
      send: vi.fn(),
      isDestroyed: () => false,
      session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
    };
    record: (typeof state.windows)[number];
    constructor(options: Record<string, unknown>) {
      this.record = { options, contents: this.webContents };
      state.windows.push(this.record);
    }
    once = vi.fn();
    on = vi.fn();
    loadURL(url: string) {
      this.record.url = url;
      return Promise.resolve();
    }
  }
  return {
    app: { whenReady: () => Promise.resolve(), enableSandbox: () => void (state.sandbox = true), getPath: () => '/tmp/parity-studio-test', on: vi.fn(), quit: vi.fn() },
    BrowserWindow,
    dialog: {},
    ipcMain: { handle: (c: string, h: unknown) => void state.handlers.set(c, h), removeHandler: vi.fn() },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: (m: unknown) => void (state.menu = m) },
    net: { fetch: vi.fn() },
    protocol: { registerSchemesAsPrivileged: (s: unknown[]) => state.schemes.push(...s), handle: vi.fn() },
  };
});
vi.mock('../../../electron/host/studio-host.js', () => ({
  StudioHost: class {
    on = () => () => undefined;
    dispose = async () => undefined;
  },
}));

beforeAll(async () => {
  await import('../../../electron/main/main.js');
  await new Promise((r) => setTimeout(r, 0));
});

describe('Electron main entry (mocked electron)', () => {
  it('opens one sandboxed window on app://studio with the bundled preload', () => {
    expect(state.sandbox).toBe(true);
    expect(state.windows).toHaveLength(1);
    const [window] = state.windows;
    expect(window.url).toBe('app://studio/index.html');
    expect(window.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, preload: expect.stringMatching(/dist[/\\]preload[/\\]preload\.cjs$/) });
    expect(window.contents.setWindowOpenHandler).toHaveBeenCalled();
    expect(state.schemes).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
  });

  it('serves every StudioApi method and the two dialogs over IPC, and sets the menu', () => {
    expect(state.handlers.has('studio:compare')).toBe(true);
    expect(state.handlers.has('studio:cancel')).toBe(true);
    expect(state.handlers.has('shell:openWavs')).toBe(true);
    expect(state.handlers.has('shell:chooseExportDir')).toBe(true);
    expect(Array.isArray(state.menu)).toBe(true);
  });

  it('refuses every permission request and check of the window\'s session (Electron grants them by default)', () => {
    const session = (state.windows[0].contents as { session: Record<string, ReturnType<typeof vi.fn>> }).session;
    const request = session.setPermissionRequestHandler.mock.calls[0][0] as (c: unknown, p: string, cb: (granted: boolean) => void) => void;
    const answers: boolean[] = [];
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read']) request(null, permission, (granted) => answers.push(granted));
    expect(answers).toEqual([false, false, false, false]);
    const check = session.setPermissionCheckHandler.mock.calls[0][0] as (c: unknown, p: string) => boolean;
    expect(check(null, 'media')).toBe(false);
  });

  it('the window may not name an export folder no dialog returned', async () => {
    const handler = state.handlers.get('studio:exportFixture') as (event: unknown, request: unknown) => Promise<{ ok: boolean; error?: { message: string } }>;
    const reply = await handler({ senderFrame: { url: 'app://studio/index.html' } }, { id: '20260101-120000-1a2b3c', dir: '/etc/evil' });
    expect(reply.ok).toBe(false);
    expect(reply.error?.message).toBe('dir: "/etc/evil" was not chosen in one of the app\'s dialogs; the window may only name files and folders picked there');
  });
});
