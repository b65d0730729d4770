import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';

// A WAV import in Chromium against `parity serve`: the files go by streamed upload, the page draws the
// two waveforms from its own decode while the host measures ("Measuring…", progress, Cancel), and the
// host's result (metrics, history entry) replaces it; Cancel stops the measuring and saves nothing.
// Three minutes at 24 kHz: long enough that the host's comparison (about a second here) is seen.
const SHOTS = 'test-results';

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-measuring-'));

function writePair(dir: string): [string, string] {
  mkdirSync(dir, { recursive: true });
  const n = 24_000 * 180;
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = 0.4 * Math.sin((2 * Math.PI * 150 * i) / 24_000) * (0.5 + 0.5 * Math.sin(i / 5000));
    b[i] = 0.9 * a[i];
  }
  const pa = join(dir, 'long-a.wav');
  const pb = join(dir, 'long-b.wav');
  writeFileSync(pa, encodeWav([a], 24_000, 'pcm16'));
  writeFileSync(pb, encodeWav([b], 24_000, 'pcm16'));
  return [pa, pb];
}

/**
 * Page code, started before the import: resolves once the comparison on screen has a history id, with
 * what was seen at each animation frame before: a frame with the A/B lane drawn while "Measuring…"
 * stood in place of the verdict and the comparison had no history id yet.
 */
const WATCH = `window.__measuringSeen = new Promise((resolve) => {
  let seen = false;
  const drawn = () => {
    const c = document.querySelector('[data-testid="waveform-ab"]');
    if (!c || !c.width) return false;
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < px.length; i += 4 * 13) if (px[i] > 0) return true;
    return false;
  };
  const tick = () => {
    const s = window.__studio.store.getState();
    if (!seen && s.comparison && s.comparison.historyId === '' && document.querySelector('[data-testid="verdict"]')?.textContent === 'Measuring…' && document.querySelector('[data-testid="measuring"]') && drawn()) seen = true;
    if (s.comparison?.historyId) resolve({ seen });
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}); 0`;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(() => stopStudio(browser, served));

describe('studio UI in Chromium: a WAV import shows its audio while the host measures it', () => {
  it('draws both waveforms under "Measuring…" first, then the host\'s metrics replace it', async () => {
    const [a, b] = writePair(join(dataDir, 'pair'));
    const uploads: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/upload') uploads.push(new URL(r.url()).searchParams.get('name')!);
    });
    await page.evaluate(WATCH);
    await page.getByLabel('Open WAV or trace files').setInputFiles([a, b]);
    await page.getByTestId('measuring').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${SHOTS}/ui-measuring-1280.png` });
    const { seen } = (await page.evaluate('window.__measuringSeen')) as { seen: boolean };
    expect(seen).toBe(true);
    // Both files went by POST /upload, not inside the WebSocket message.
    expect(uploads.sort()).toEqual(['long-a.wav', 'long-b.wav']);
    await page.locator('li.current', { hasText: 'long-a.wav vs long-b.wav' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('measuring').count()).toBe(0);
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^No verdict/);
    await page.getByRole('tab', { name: 'Metrics' }).click();
    expect(await page.getByRole('row', { name: /Length A \/ B/ }).textContent()).toContain('4320000 / 4320000');
    // B = 0.9·A: the host's lag and gain align the difference, which then nulls (the raw one at lag 0 would read −20 dB).
    const nullDb = Number(await page.getByTestId('diff-null').getAttribute('data-null-db'));
    expect(nullDb).toBeLessThan(-60);
    expect(problems).toEqual([]);
  }, 120_000);

  it('Cancel stops the measuring: the waveforms leave, nothing is saved, and the notice says so', async () => {
    const [a, b] = [join(dataDir, 'pair', 'long-a.wav'), join(dataDir, 'pair', 'long-b.wav')];
    const before = await page.locator('[data-history-id]').count();
    await page.getByLabel('Open WAV or trace files').setInputFiles([b, a]);
    const cancel = page.getByTestId('measuring').getByRole('button', { name: 'Cancel' });
    await cancel.click({ timeout: 20_000 });
    const notice = page.getByTestId('notice').last();
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain('Import of long-b.wav and long-a.wav cancelled; nothing was saved.');
    expect(await page.getByTestId('waveform-ab').count()).toBe(0);
    expect(await page.locator('[data-history-id]').count()).toBe(before);
    expect(problems).toEqual([]);
  }, 120_000);
});
