import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio, writeImportFiles } from './studio-ui-helpers.js';

// Browser mode on a remote server: the exported folder is on the server's disk, so the studio offers it
// as a .zip the browser saves. Also: the form's number fields hold the host's bounds.
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-download-'));

beforeAll(async () => {
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(() => stopStudio(browser, served));

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('browser mode: download an exported fixture', () => {
  it('exports an imported pair, downloads <folder>.zip holding <folder>/ with exactly the folder’s files, byte for byte', async () => {
    const files = writeImportFiles(join(dataDir, 'import'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([files.a, files.b]);
    await page.locator('li.current', { hasText: 'engine-a.wav vs engine-b.wav' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Export fixture' }).click();
    const result = page.getByTestId('export-result');
    await result.waitFor({ timeout: 20_000 });
    const dir = (await result.locator('code').textContent())!;
    expect(dir.startsWith(join(dataDir, 'exports'))).toBe(true);
    await result.getByRole('link', { name: 'Download .zip' }).waitFor();
    // The export's button and result line are items of the verdict bar (display: contents): shoot the bar.
    await page.locator('.verdict-bar').screenshot({ path: 'test-results/ui-export-download-1280.png' });
    const [download] = await Promise.all([page.waitForEvent('download'), result.getByRole('link', { name: 'Download .zip' }).click()]);
    expect(download.suggestedFilename()).toBe(`${basename(dir)}.zip`);
    const entries = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    // Everything inside one folder named as the exported one, so `unzip` then `parity gate <folder>` works.
    // The shareable views (report.html and the PNGs) come with the rest: the zip is what a bug report needs.
    const names = ['a.wav', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png'];
    expect(Object.keys(entries).sort()).toEqual(names.map((name) => `${basename(dir)}/${name}`));
    for (const name of names) expect(sha256(entries[`${basename(dir)}/${name}`]), name).toBe(sha256(readFileSync(join(dir, name))));
    // Again: the host refuses the existing folder with reason "exists" (over the WebSocket), so the page
    // asks instead of showing an error; Replace writes it again.
    await page.getByRole('button', { name: 'Export fixture' }).click();
    const question = page.getByRole('alertdialog');
    await question.waitFor({ timeout: 20_000 });
    expect(await question.locator('#overwrite-q').textContent()).toBe(`${dir} already exists. Replace it?`);
    expect(await page.getByTestId('notice').count()).toBe(0);
    await question.getByRole('button', { name: 'Replace' }).click();
    await question.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await result.locator('code').textContent()).toBe(dir);
    expect(problems).toEqual([]);
  }, 60_000);

  it('the temperature field says its range, refuses 50 inline and becomes 10 (the host schema’s maximum) on leaving it', async () => {
    await page.getByLabel('Sample (off = greedy)').check();
    const field = page.getByLabel('Temperature');
    expect(await page.locator('label[for="field-temperature"]').innerText()).toBe('Temperature 0.05–10');
    await field.fill('50');
    // Each read after an input waits for React to re-render (poll), never reads once right after it.
    await expect.poll(() => page.getByTestId('field-temperature-issue').textContent()).toBe('Temperature is at most 10; it will be set to 10.');
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await page.locator('fieldset.sampling').screenshot({ path: 'test-results/ui-temperature-bound.png' });
    await field.blur();
    await expect.poll(() => field.inputValue()).toBe('10');
    await expect.poll(() => page.getByTestId('field-temperature-issue').count()).toBe(0);
    await expect.poll(() => page.evaluate('window.__studio.store.getState().form.sampling.temperature')).toBe(10);
  });
});
