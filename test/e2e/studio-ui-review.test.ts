import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOnce } from './build-once.js';
import { startServe, type Served } from './serve-process.js';
import { launchChromium, watchProblems, writeImportFiles } from './studio-ui-helpers.js';

// Real Chromium, browser mode, one page: the spectrogram's FFT is the shared PFFFT (WebAssembly)
// compiled under the studio's CSP ('wasm-unsafe-eval' in script-src, nothing more); the header names the
// bundle's tokenizer and the prompt counts in its unit; at 1024x700 a notice never covers the verdict.
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  buildOnce();
  served = await startServe();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** Mean red value of a canvas row over a horizontal span (fractions of its width), read in the page. */
function rowLevel(label: string, fromTop: number, x0: number, x1: number): Promise<number> {
  return page.evaluate(
    `(() => { const c = document.querySelector('canvas[aria-label="${label}"]'); const y = Math.floor(${fromTop} * c.height);` +
      ` const d = c.getContext('2d').getImageData(Math.floor(${x0} * c.width), y, Math.floor((${x1} - ${x0}) * c.width), 1).data;` +
      ' let s = 0; for (let i = 0; i < d.length; i += 4) s += d[i]; return s / (d.length / 4); })()',
  ) as Promise<number>;
}

describe('studio UI review items in Chromium', () => {
  it('serves a CSP that allows WebAssembly compilation and no JS eval, in the header and the page', async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await watchProblems(page, problems);
    const response = await page.goto(served.url);
    const header = response!.headers()['content-security-policy'];
    const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    for (const csp of [header, meta]) {
      expect(/script-src ([^;]*)/.exec(csp ?? '')?.[1]).toBe("'self' 'wasm-unsafe-eval'");
      expect(csp).not.toMatch(/'unsafe-eval'|'unsafe-inline'/);
    }
    await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
  }, 60_000);

  it('names the byte-level tokenizer in the header and counts the prompt in UTF-8 bytes', async () => {
    // Before any import: while imported files are on screen the header names them instead (docs/studio.md).
    const tokenizer = page.getByTestId('bundle-tokenizer');
    expect(await tokenizer.textContent()).toBe('byte-level text');
    // The demo bundle: 128 UTF-8 bytes after BOS 256 (docs/bundle-format.md, text.maxBytes).
    expect(await tokenizer.getAttribute('title')).toBe('Text tokenizer: byte-level: UTF-8 bytes (ids 0..255) after BOS 256; at most 128 UTF-8 bytes (bundle.json text.maxBytes)');
    await page.getByLabel('Prompt').fill('Grüße'); // ü and ß are 2 bytes each in UTF-8: 7 bytes
    expect(await page.getByTestId('prompt-length').textContent()).toBe('7 / 128 UTF-8 bytes');
    await page.getByLabel('Prompt').fill('x'.repeat(129));
    await expect.poll(() => page.getByTestId('prompt-length').textContent()).toBe('129 / 128 UTF-8 bytes: too long, shorten it to synthesize');
    await expect.poll(() => page.getByRole('button', { name: 'Synthesize A/B' }).isDisabled()).toBe(true);
    await page.getByLabel('Prompt').fill('Hello.');
    await expect.poll(() => page.getByRole('button', { name: 'Synthesize A/B' }).isDisabled()).toBe(false);
  });

  it('draws B’s 1500 Hz burst in its second half only, with no CSP violation or failed request', async () => {
    // engine-a.wav: 220 Hz at 0.3; engine-b.wav: the same plus 0.05 × 1500 Hz over its second half
    // (studio-ui-helpers). 0.05 is −26 dB → spectrogram code 255·(1 − 26/100) ≈ 189, red ≈ 226 (the
    // ramp's red is 1.2 × code); A at 1500 Hz holds only Hann leakage and 16-bit noise (< −90 dB).
    const files = writeImportFiles(join(mkdtempSync(join(tmpdir(), 'parity-spec-')), 'import'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([files.a, files.b]);
    await page.locator('li.current', { hasText: 'engine-a.wav vs engine-b.wav' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Spectrogram' }).click();
    // The spectrogram lanes appear once the FFT (WASM) has loaded.
    await page.locator('canvas[aria-label="Spectrogram of B"]').waitFor({ timeout: 10_000 });
    // 1500 Hz of 0..12 kHz, 0 Hz at the bottom: 1 − 1500 / 12000 = 0.875 of the height from the top.
    const at1500 = 0.875;
    const lateB = await rowLevel('Spectrogram of B', at1500, 0.6, 0.95);
    const earlyB = await rowLevel('Spectrogram of B', at1500, 0.05, 0.4);
    const lateA = await rowLevel('Spectrogram of A', at1500, 0.6, 0.95);
    expect(lateB).toBeGreaterThan(200);
    expect(earlyB).toBeLessThan(100);
    expect(lateA).toBeLessThan(100);
    await page.screenshot({ path: 'test-results/ui-spectrogram-import-1280.png' });
    expect(problems).toEqual([]);
  }, 60_000);

  it('at 1024x700 an error notice sits above the verdict line, not over it, and the header still fits', async () => {
    await page.setViewportSize({ width: 1024, height: 700 });
    const files = writeImportFiles(join(mkdtempSync(join(tmpdir(), 'parity-notice-')), 'import'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([files.notWav]);
    const notice = page.getByTestId('notice').last();
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain('notes.txt is neither a WAV file (it has no RIFF/WAVE header) nor a trace');
    const n = (await notice.boundingBox())!;
    const v = (await page.getByTestId('verdict').boundingBox())!;
    expect(v.y).toBeGreaterThanOrEqual(n.y + n.height);
    expect(await page.getByTestId('verdict').isVisible()).toBe(true);
    // The header line's last shown item is inside the header, not cut off by its overflow.
    const ep = (await page.locator('section.bundle > span:visible').last().boundingBox())!;
    const mode = (await page.locator('.topbar > .muted').boundingBox())!;
    expect(ep.x + ep.width).toBeLessThanOrEqual(mode.x);
    await page.screenshot({ path: 'test-results/ui-notice-1024x700.png' });
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    expect(problems).toEqual([]);
  });
});
