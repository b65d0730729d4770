import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waveFigureLanes, waveFigureX } from '../../electron/common/draw/wave-figure.js';
import { runParity } from '../cli/run-parity.js';
import { ensureBuiltFrom } from '../unit/host/ensure-built.js';
import { CHROMIUM_FLAGS } from './studio-ui-helpers.js';

// Seams at chunk boundaries in report.html's waveform figure and overlay.png, from real comparisons: the
// stale-tail fault under bucket=13 leaves seams at boundaries 1 and 2 on this prompt
// (test/cli/compare-stale-tail.test.ts); the same padded stream without the fault has none.
const TEXT = 'Hello world, this is a parity test.';
const dir = mkdtempSync(join(tmpdir(), 'report-seams-'));
const stale = join(dir, 'stale');
const clean = join(dir, 'clean');
let browser: Browser;
let page: Page;
const problems: string[] = [];

type Seam = { boundary: number; timeSec: number };
type Rgb = [number, number, number];
// #00897b (FIGURE_PALETTE.seam); anti-aliased edges of other strokes never come this close.
const isSeamTeal = ([r, g, b]: Rgb) => r < 40 && g > 110 && g < 170 && b > 90 && b < 160;

const reportOf = (out: string) => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { seams?: { seams: Seam[] }; metrics: { lengthA: number; lengthB: number; sampleRate: number } };
const seamsOf = (out: string): Seam[] => (reportOf(out).seams?.seams ?? []).map((s) => ({ boundary: s.boundary, timeSec: Number(s.timeSec) }));
const durationOf = (out: string) => {
  const m = reportOf(out).metrics;
  return Math.max(m.lengthA, m.lengthB) / m.sampleRate;
};

async function png(path: string): Promise<{ width: number; height: number; at: (x: number, y: number) => Rgb }> {
  const image = await loadImage(readFileSync(path));
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  const d = ctx.getImageData(0, 0, image.width, image.height).data;
  return { width: image.width, height: image.height, at: (x, y) => [d[4 * (y * image.width + x)], d[4 * (y * image.width + x) + 1], d[4 * (y * image.width + x) + 2]] };
}

/**
 * Read in the page (deviceScaleFactor 1: canvas pixels are CSS pixels): the overlay canvas's size, the RGB
 * of the given points, and how many of its pixels are the seam colour (the same test as isSeamTeal).
 */
const canvasRead = (points: [number, number][]) =>
  page.getByTestId('overlay').evaluate((el, pts) => {
    const c = el as unknown as { width: number; height: number; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } };
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let teal = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] < 40 && d[i + 1] > 110 && d[i + 1] < 170 && d[i + 2] > 90 && d[i + 2] < 160) teal++;
    const rgb = pts.map(([x, y]) => [d[4 * (y * c.width + x)], d[4 * (y * c.width + x) + 1], d[4 * (y * c.width + x) + 2]] as [number, number, number]);
    return { width: c.width, height: c.height, teal, rgb };
  }, points);

beforeAll(async () => {
  ensureBuiltFrom(['electron/host', 'electron/engine', 'electron/common', 'electron/cli']);
  for (const [out, b] of [[stale, 'graph,vocoder=stream,bucket=13,fault=stale-tail'], [clean, 'graph,vocoder=stream,bucket=13']]) {
    const run = await runParity(['compare', '--text', TEXT, '--a', 'graph,vocoder=stream', '--b', b, '--out', out], { timeoutMs: 60_000 });
    expect(run.stderr).toBe('');
  }
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('seams in report.html and overlay.png', () => {
  it('the stale-tail fixture reports seams at boundaries 1 and 2; the clean one none', () => {
    expect(seamsOf(stale).map((s) => s.boundary)).toEqual([1, 2]);
    expect(seamsOf(clean)).toEqual([]);
  });

  it('overlay.png marks each reported seam atop the waveforms at its time, and the clean one shows no seam colour', async () => {
    const img = await png(join(stale, 'overlay.png'));
    const top = waveFigureLanes(img.height).ab[0];
    for (const seam of seamsOf(stale)) {
      const x = Math.round(waveFigureX(seam.timeSec, { start: 0, end: durationOf(stale) }, img.width));
      expect(isSeamTeal(img.at(x, top + 2)), `seam ${seam.boundary} at ${seam.timeSec} s`).toBe(true);
      expect(isSeamTeal(img.at(x - 15, top + 2))).toBe(false);
    }
    const none = await png(join(clean, 'overlay.png'));
    let teal = 0;
    for (let y = 0; y < none.height; y++) for (let x = 0; x < none.width; x++) if (isSeamTeal(none.at(x, y))) teal++;
    expect(teal).toBe(0);
  });

  it('report.html draws them at their times, lists them, and hovering one names it', async () => {
    await page.goto(pathToFileURL(join(stale, 'report.html')).href);
    await page.getByTestId('overlay').waitFor();
    const seams = seamsOf(stale);
    expect(await page.getByTestId('seams').locator('li').allTextContents()).toEqual(seams.map((s) => `seam at chunk boundary ${s.boundary}, ${s.timeSec.toFixed(3)} s`));
    const { width, height } = await canvasRead([]);
    const top = waveFigureLanes(height).ab[0];
    const xs = seams.map((seam) => Math.round(waveFigureX(seam.timeSec, { start: 0, end: durationOf(stale) }, width)));
    const { rgb } = await canvasRead(xs.flatMap((x): [number, number][] => [[x, top + 2], [x - 15, top + 2]]));
    const box = (await page.getByTestId('overlay').boundingBox())!;
    for (const [i, seam] of seams.entries()) {
      const x = xs[i];
      expect(isSeamTeal(rgb[2 * i]), `seam ${seam.boundary}`).toBe(true);
      expect(isSeamTeal(rgb[2 * i + 1])).toBe(false);
      await page.mouse.move(box.x + x, box.y + top + 30);
      await expect.poll(() => page.getByTestId('overlay-readout').textContent()).toContain(`seam at chunk boundary ${seam.boundary}, ${seam.timeSec.toFixed(3)} s`);
    }
    await page.screenshot({ path: 'test-results/report-seams.png', fullPage: true });
    expect(problems).toEqual([]);
  });

  it('the clean fixture’s report.html lists no seam and draws no seam colour', async () => {
    await page.goto(pathToFileURL(join(clean, 'report.html')).href);
    await page.getByTestId('overlay').waitFor();
    expect(await page.getByTestId('seams').count()).toBe(0);
    expect((await canvasRead([])).teal).toBe(0);
    expect(problems).toEqual([]);
  });
});
