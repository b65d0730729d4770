import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAppUrl, readAppFile } from '../../../electron/main/app-protocol.js';
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

  it('serves only files of the built renderer from app://studio/', async () => {
    const root = mkdtempSync(join(tmpdir(), 'app-protocol-'));
    const dir = join(root, 'renderer');
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'assets', 'a.js'), 'export {};');
    writeFileSync(join(root, 'secret'), 'SECRET');
    symlinkSync(join(root, 'secret'), join(dir, 'assets', 'out.js'));
    expect(isAppUrl('app://studio/index.html')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(await readAppFile('app://studio/', dir)).toEqual({ ok: true, body: new TextEncoder().encode('<!doctype html>'), type: 'text/html; charset=utf-8' });
    expect(await readAppFile('app://studio/assets/a.js', dir)).toMatchObject({ ok: true, type: 'text/javascript; charset=utf-8' });
    expect(await readAppFile('app://studio/..%2f..%2fsecret', dir)).toEqual({ ok: false, status: 404, line: 'not found' });
    expect(await readAppFile('file:///etc/passwd', dir)).toEqual({ ok: false, status: 404, line: 'not found' });
    // The same refusals as browser mode's server (test/unit/server/static-refusals.test.ts walks them all).
    expect(await readAppFile('app://studio/assets/out.js', dir)).toMatchObject({ ok: false, status: 403, line: expect.stringContaining('outside the built renderer folder') });
    rmSync(root, { recursive: true, force: true });
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
