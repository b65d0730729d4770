import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { fmt } from '../../renderer/src/lib/format.js';
import { countRenders, renderCount } from './render-count.js';
import { startStudio, stopStudio, watchProblems, writeImportFiles, type StudioSession } from './studio-ui-helpers.js';

// The shared timeline in Chromium (browser mode, imports only, so no synthesis time): the aligned
// difference of the README's sample pair, the hover readout against the WAV's own samples, and a
// Ctrl+wheel zoom that the spectrogram follows while the page itself does not zoom.
const SHOTS = 'test-results';
const problems: string[] = [];
let studio: StudioSession;
let page: Page;

beforeAll(async () => {
  studio = await startStudio(mkdtempSync(join(tmpdir(), 'parity-timeline-')), problems, { width: 1440, height: 900 });
  page = studio.page;
}, 120_000);
afterAll(() => stopStudio(studio?.browser, studio?.served));

const SPEECH = 'assets/samples/speech.wav';
const LATE = 'assets/samples/speech-quieter-late.wav';

async function importPair(a: string, b: string): Promise<void> {
  const before = await page.locator('[data-history-id]').count();
  await page.getByLabel('Open WAV or trace files').setInputFiles([a, b]);
  await expect.poll(() => page.locator('[data-history-id]').count(), { timeout: 20_000 }).toBe(before + 1);
  await page.getByTestId('waveform-ab').waitFor({ timeout: 10_000 });
}

/** Mean red of a canvas row (fraction `fromTop` of its height) between two fractions of its width. */
function rowLevel(label: string, fromTop: number, x0: number, x1: number): Promise<number> {
  return page.evaluate(
    `(() => { const c = document.querySelector('canvas[aria-label="${label}"]'); const y = Math.floor(${fromTop} * c.height);` +
      ` const d = c.getContext('2d').getImageData(Math.floor(${x0} * c.width), y, Math.max(1, Math.floor((${x1} - ${x0}) * c.width)), 1).data;` +
      ' let s = 0; for (let i = 0; i < d.length; i += 4) s += d[i]; return s / (d.length / 4); })()',
  ) as Promise<number>;
}

describe('studio timeline: one viewport for every lane', () => {
  it('the README pair (B 37 samples late, ×0.8): the aligned difference nulls to the matched null; raw does not', async () => {
    await importPair(SPEECH, LATE);
    const matchedText = (await page.getByRole('row', { name: /Matched null/ }).locator('td').textContent())!;
    const matched = Number(/^([−\d.]+) dB/.exec(matchedText)![1].replace('−', '-'));
    const shown = page.getByTestId('diff-null');
    // The lane's null is over the whole take (the 37 unmatched end samples count in A's energy): within 0.5 dB.
    expect(Math.abs(Number(await shown.getAttribute('data-null-db')) - matched)).toBeLessThan(0.5);
    expect(matched).toBeLessThan(-55);
    expect(await shown.textContent()).toMatch(/Difference aligned \(B shifted 37\.00 samples/);
    await page.screenshot({ path: `${SHOTS}/ui-aligned-difference-1440.png` });
    await page.getByRole('button', { name: 'Aligned difference' }).click();
    // Raw A − B at lag 0 of a 37-sample shift is as loud as the speech itself (README: +2.9 dB).
    await expect.poll(async () => Number(await shown.getAttribute('data-null-db'))).toBeGreaterThan(0);
    expect(await shown.textContent()).toMatch(/Difference raw A − B at lag 0/);
    await page.getByRole('button', { name: 'Aligned difference' }).click();
    // B is 1.94 LU quieter: ABX warns that the level gives X away until Match loudness is on.
    await page.getByRole('tab', { name: 'ABX blind test' }).click();
    const warning = page.getByTestId('abx-level-warning');
    expect(await warning.textContent()).toMatch(/^B is 1\.94 LU quieter than A: the level alone gives X away\./);
    await warning.getByRole('button', { name: 'Match loudness' }).click();
    await expect.poll(() => warning.count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: 'Match loudness' }).isChecked()).toBe(true);
    await page.getByRole('checkbox', { name: 'Match loudness' }).uncheck();
    await page.getByRole('tab', { name: 'Metrics' }).click();
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/ui-aligned-difference-1024.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);

  it('the hover readout gives the sample under the pointer and A’s and B’s values there, as the WAVs hold them', async () => {
    const a = decodeWav(new Uint8Array(readFileSync(SPEECH)), SPEECH).channels[0];
    const b = decodeWav(new Uint8Array(readFileSync(LATE)), LATE).channels[0];
    const box = (await page.getByTestId('lane-overlay').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.37, box.y + 40);
    const text = (await page.getByTestId('hover-readout').textContent())!;
    const n = Number(/sample (\d+)/.exec(text)![1]);
    expect(n).toBeGreaterThan(0);
    // fmt(…, 5): the readout's own rounding; the values come from decodeWav of the same files.
    expect(text).toContain(`sample ${n} · A ${fmt(a[n], 5)} · B ${fmt(b[n], 5)}`);
  }, 30_000);

  it('a selected region is measured as parity compare-wav measures the two cut files', async () => {
    const box = (await page.getByTestId('lane-overlay').boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.3, box.y + 60);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + 60, { steps: 6 });
    await page.mouse.up();
    const panel = page.getByTestId('region-metrics');
    await panel.locator('table').waitFor({ timeout: 10_000 });
    const from = Number(await panel.getAttribute('data-from'));
    const to = Number(await panel.getAttribute('data-to'));
    expect(to - from).toBeGreaterThan(10_000);
    // Cut the same samples out of the WAVs (16-bit in, 16-bit out: the values are kept exactly) and ask the CLI.
    const dir = mkdtempSync(join(tmpdir(), 'parity-cut-'));
    const cut = (path: string, name: string) => {
      const x = decodeWav(new Uint8Array(readFileSync(path)), path).channels[0].slice(from, to);
      writeFileSync(join(dir, name), encodeWav([x], 24000, 'pcm16'));
      return join(dir, name);
    };
    const m = JSON.parse(execFileSync(process.execPath, ['bin/parity.js', 'compare-wav', cut(SPEECH, 'a.wav'), cut(LATE, 'b.wav'), '--json'], { encoding: 'utf8' })) as Record<string, number>;
    const cell = async (key: string) => (await panel.locator(`tr[data-key="${key}"] td`).first().textContent())!;
    // The panel's own formatting of the CLI's numbers (region-rows.ts): equal text means equal to that precision.
    expect(await cell('correlation')).toBe(fmt(m.correlation, 4));
    expect(await cell('nullDepth')).toBe(fmt(m.nullDepthDb, 1, ' dB'));
    expect(await cell('matchedNull')).toBe(fmt(m.matchedNullDepthDb, 1, ' dB'));
    expect(await cell('deltaLU')).toBe(fmt(m.loudnessDeltaLU, 2, ' LU'));
    expect(await cell('lsd')).toBe(fmt(m.lsdDb, 2, ' dB'));
    expect(await cell('mcd')).toBe(fmt(m.mcdDb, 2, ' dB'));
    // The loop region is drawn across every lane (the overlay spans them): the Loop button shows it.
    expect(await page.getByRole('button', { name: /^Loop/ }).getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: `${SHOTS}/ui-region-metrics-1440.png` });
    await page.keyboard.press('l');
  }, 60_000);

  it('Ctrl+wheel zooms every lane about the pointer, not the page; the spectrogram is redrawn for the new range', async () => {
    // engine-b.wav holds a 1500 Hz burst from 1.000 s (sample 24000) on: studio-ui-helpers.
    const files = writeImportFiles(join(mkdtempSync(join(tmpdir(), 'parity-zoom-')), 'import'));
    await importPair(files.a, files.b);
    await page.getByRole('button', { name: 'Spectrogram' }).click();
    await page.getByTestId('specB').waitFor();
    await page.waitForFunction('document.querySelector(\'canvas[aria-label="Spectrogram of B"]\').width > 0');
    const pixels = () => page.evaluate("(() => { const c = document.querySelector('canvas[aria-label=\"Spectrogram of B\"]'); return Array.from(c.getContext('2d').getImageData(0, 0, c.width, c.height).data.filter((_, i) => i % 97 === 0)).join(','); })()");
    const before = await pixels();
    await page.evaluate("window.__wheelPrevented = []; window.addEventListener('wheel', (e) => window.__wheelPrevented.push(e.defaultPrevented))");
    const box = (await page.getByTestId('lane-overlay').boundingBox())!;
    // Pointer at the middle of a 2 s take: 1.0 s stays under it while the window narrows.
    await page.mouse.move(box.x + box.width / 2, box.y + 40);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -400);
    await page.mouse.wheel(0, -400);
    await page.keyboard.up('Control');
    const range = page.getByTestId('view-range');
    await expect.poll(async () => Number(await range.getAttribute('data-end')) - Number(await range.getAttribute('data-start'))).toBeLessThan(0.5);
    const start = Number(await range.getAttribute('data-start'));
    const end = Number(await range.getAttribute('data-end'));
    expect((start + end) / 2).toBeCloseTo(1, 2);
    expect(await page.evaluate('window.__wheelPrevented')).toEqual([true, true]);
    expect(await page.evaluate('window.visualViewport.scale')).toBe(1);
    await expect.poll(pixels).not.toBe(before);
    // 1500 Hz of 0..12 kHz is 0.875 from the top. The burst starts at the lane's middle (1.0 s), so B's
    // row is dark left of it and bright right of it; a 512-sample window blurs ±10.7 ms around 1.0 s,
    // which is under 5 % of this window either side, hence the 0.4 / 0.6 margins.
    expect(await rowLevel('Spectrogram of B', 0.875, 0.05, 0.4)).toBeLessThan(100);
    expect(await rowLevel('Spectrogram of B', 0.875, 0.6, 0.95)).toBeGreaterThan(200);
    expect(await page.getByTestId('time-ruler').getAttribute('aria-label')).toBe('Time ruler');
    // The lanes' own keys: + halves the window, 0 fits the take again.
    const span = async () => Number(await range.getAttribute('data-end')) - Number(await range.getAttribute('data-start'));
    const before2 = await span();
    await page.getByTestId('lanes').focus();
    await page.keyboard.press('+');
    // data-start/end are written to 6 decimals: 1e-5 s is their rounding twice over.
    await expect.poll(span).toBeCloseTo(before2 / 2, 5);
    await page.keyboard.press('0');
    await expect.poll(span).toBeCloseTo(2, 5);
    await page.screenshot({ path: `${SHOTS}/ui-zoom-spectrogram-1440.png` });
    expect(problems).toEqual([]);
  }, 60_000);
});

describe('the lanes render only when what they are built from changes', () => {
  it('hover, seek, zoom and a notice leave Lanes unrendered; the aligned-difference switch renders it', async () => {
    const watched = await studio.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await watchProblems(watched, problems);
    await countRenders(watched, 'lanes');
    await watched.goto(studio.served.url);
    await watched.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
    await watched.getByLabel('Open WAV or trace files').setInputFiles([SPEECH, LATE]);
    // Measured: the aligned difference is on screen (the comparison arrives twice, audio first).
    await expect.poll(async () => (await watched.getByTestId('diff-null').textContent()) ?? '', { timeout: 20_000 }).toMatch(/Difference aligned/);
    let settled = -1;
    await expect.poll(async () => settled === (settled = await renderCount(watched)), { interval: 300 }).toBe(true);
    expect(settled).toBeGreaterThanOrEqual(1);

    const box = (await watched.getByTestId('lane-overlay').boundingBox())!;
    for (const at of [0.2, 0.4, 0.6]) await watched.mouse.move(box.x + box.width * at, box.y + 40);
    expect(await watched.getByTestId('hover-readout').textContent()).toMatch(/sample \d+/);
    const playhead = async () => /Playhead ([^/]+)/.exec((await watched.getByTestId('position-label').textContent()) ?? '')?.[1];
    const before = await playhead();
    await watched.mouse.click(box.x + box.width * 0.5, box.y + 40);
    await expect.poll(playhead).not.toBe(before);
    const range = watched.getByTestId('view-range');
    const end = await range.getAttribute('data-end');
    await watched.getByTestId('lanes').focus();
    await watched.keyboard.press('+');
    await expect.poll(() => range.getAttribute('data-end')).not.toBe(end);
    await watched.getByLabel('Open WAV or trace files').setInputFiles([SPEECH]);
    await watched.getByTestId('notice').filter({ hasText: 'Only one WAV file' }).waitFor();
    expect(await renderCount(watched)).toBe(settled);

    // An input of the lanes: the difference lane is rebuilt, so Lanes renders (the count can move).
    await watched.getByRole('button', { name: 'Aligned difference' }).click();
    await expect.poll(() => renderCount(watched)).toBeGreaterThan(settled);
    expect(await watched.getByTestId('waveform-diff').getAttribute('aria-label')).toMatch(/raw A − B/);
    await watched.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
