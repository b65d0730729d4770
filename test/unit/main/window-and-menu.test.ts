import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appUrlToFile, isAppUrl } from '../../../electron/main/app-protocol.js';
import { menuTemplate, type MenuItem } from '../../../electron/main/menu-template.js';
import { guardContents, secureWebPreferences } from '../../../electron/main/window-guards.js';

describe('window security', () => {
  it('creates windows sandboxed, isolated and without Node', () => {
    expect(secureWebPreferences('/p.cjs')).toMatchObject({ preload: '/p.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
  });

  it('blocks navigation away from the app, new windows and webviews', () => {
    const listeners: Record<string, (e: { preventDefault(): void }, url: string) => void> = {};
    let openHandler: ((d: { url: string }) => { action: string }) | undefined;
    const log: string[] = [];
    guardContents({ on: (name: string, l: never) => void (listeners[name] = l), setWindowOpenHandler: (h: never) => void (openHandler = h) } as never, (m) => log.push(m));
    const attempt = (name: string, url: string) => {
      let prevented = false;
      listeners[name]({ preventDefault: () => void (prevented = true) }, url);
      return prevented;
    };
    expect(attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(attempt('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(attempt('will-navigate', 'app://studio/index.html')).toBe(false);
    expect(attempt('will-attach-webview', '')).toBe(true);
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(log).toEqual(['navigation to https://evil.example/ blocked', 'navigation to file:///etc/passwd blocked', 'new window for https://evil.example/ blocked']);
  });

  it('serves only files of the built renderer from app://studio/', () => {
    const dir = '/opt/studio/renderer';
    expect(isAppUrl('app://studio/index.html')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(appUrlToFile('app://studio/', dir)).toBe(join(dir, 'index.html'));
    expect(appUrlToFile('app://studio/assets/a.js', dir)).toBe(join(dir, 'assets/a.js'));
    expect(appUrlToFile('app://studio/..%2f..%2fsecret', dir)).toBeUndefined();
    expect(appUrlToFile('file:///etc/passwd', dir)).toBeUndefined();
  });
});

describe('application menu', () => {
  it('has accelerators for the studio commands and sends them to the renderer', () => {
    const sent: string[] = [];
    const items = (menu: MenuItem[]): MenuItem[] => menu.flatMap((m) => [m, ...items(m.submenu ?? [])]);
    const all = items(menuTemplate((c) => sent.push(c), false));
    const byLabel = (label: string) => all.find((m) => m.label === label)!;
    expect(byLabel('Import WAV Pair…').accelerator).toBe('CmdOrCtrl+O');
    expect(byLabel('Synthesize A/B').accelerator).toBe('CmdOrCtrl+Enter');
    byLabel('Synthesize A/B').click!();
    byLabel('Cancel').click!();
    expect(sent).toEqual(['synthesize', 'cancel']);
    expect(all.some((m) => m.role === 'quit')).toBe(true);
    expect(menuTemplate(() => undefined, true)[0]).toEqual({ role: 'appMenu' });
  });
});
