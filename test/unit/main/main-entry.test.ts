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
    webContents = { on: vi.fn(), setWindowOpenHandler: vi.fn(), send: vi.fn(), isDestroyed: () => false };
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
});
