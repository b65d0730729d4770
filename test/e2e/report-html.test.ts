import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waveFigureLanes, waveFigureX } from '../../electron/common/draw/wave-figure.js';
import { reportPageData } from '../../electron/common/report/html/report-page-data.js';
import { decodeWav } from '../../electron/common/wav/decode-wav.js';
import { pageAudio } from '../../electron/host/report-html/page-audio.js';
import { renderReportHtml } from '../../electron/host/report-html/render-report-html.js';
import { runParity } from '../cli/run-parity.js';
import { ensureBuiltFrom } from '../unit/host/ensure-built.js';
import { CHROMIUM_FLAGS } from './studio-ui-helpers.js';

// Tests are typechecked without the DOM lib: the little of it used here, as the page has it.
type MediaEl = { currentTime: number; paused: boolean; play(): Promise<void>; pause(): void };
type CanvasEl = { width: number; getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } };

const dir = mkdtempSync(join(tmpdir(), 'report-html-e2e-'));
const out = join(dir, 'stale');
let browser: Browser;
let page: Page;
let summary = '';
const requests: string[] = [];
const problems: string[] = [];

beforeAll(async () => {
  ensureBuiltFrom(['electron/host', 'electron/engine', 'electron/common', 'electron/cli']);
  const run = await runParity(['compare', '--text', 'Share me, and listen to both.', '--a', 'graph', '--b', 'graph,fault=stale-feedback@2', '--out', out], { timeoutMs: 60_000 });
  expect(run.stderr).toBe('');
  summary = run.stdout;
  // Playback started from a script, as a listener's click would start it.
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required'] });
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  // Network disabled twice over: the context is offline, and anything but the file itself and its blob:/data: URLs is aborted.
  await context.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  page = await context.newPage();
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(pathToFileURL(join(out, 'report.html')).href);
  await page.getByTestId('overlay').waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const report = () => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
/**
 * Both players read in one evaluation (one JS task in the page), so the take still playing cannot move
 * on between the two reads however slow the machine is.
 */
const mediaPair = (first: 'a' | 'b', second: 'a' | 'b') =>
  page.evaluate(
    ([x, y]) =>
      [x, y].map((take) => {
        const doc = (globalThis as unknown as { document: { querySelector(selector: string): unknown } }).document;
        const el = doc.querySelector(`[data-testid="player-${take}"]`) as MediaEl;
        return { t: el.currentTime, paused: el.paused };
      }),
    [first, second] as const,
  );
const media = (take: 'a' | 'b') => page.getByTestId(`player-${take}`).evaluate((el) => ({ t: (el as unknown as MediaEl).currentTime, paused: (el as unknown as MediaEl).paused }));
/** RGB of one CSS pixel of the overlay canvas (deviceScaleFactor 1: canvas pixels are CSS pixels). */
const overlayPixel = (x: number, y: number) =>
  page.getByTestId('overlay').evaluate((el, [px, py]) => Array.from((el as unknown as CanvasEl).getContext('2d').getImageData(px, py, 1, 1).data).slice(0, 3), [x, y] as const);

describe('report.html from file:// with the network off', () => {
  it('says the lag is unreliable (peak < 0.5: two renderings, not shifted copies) in the CLI summary, report.md, report.json and report.html alike', async () => {
    expect(report().metrics.lagReliable).toBe(false);
    const unreliable = /Sub-sample lag\W+unreliable: cross-correlation peak 0\.\d\d < 0\.5 \(the takes are not shifted copies\)/;
    const gain = /Gain B→A \(least squares\)\W+[−+-]?[\d.]+ dB \(lag unreliable: not a shifted copy\)/;
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const html = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
    for (const [name, text] of [['summary', summary], ['report.md', md], ['report.html', html]] as const) {
      expect(text, name).toMatch(unreliable);
      expect(text, name).toMatch(gain);
    }
  });


  it('loads with no request leaving the page and no page error', () => {
    const outside = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && u !== pathToFileURL(join(out, 'report.html')).href);
    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('draws the first divergence marker at the reported step’s time', async () => {
    const r = report();
    const sec = (r.divergence.firstStep - 1) / r.a.frameRate;
    const duration = Math.max(r.metrics.lengthA, r.metrics.lengthB) / r.metrics.sampleRate;
    const { width, height } = await page.getByTestId('overlay').evaluate((el) => ({ width: (el as unknown as CanvasEl).width, height: (el as unknown as CanvasEl & { height: number }).height }));
    // Marks stand on the pixel column their time rounds to (marks.ts).
    const x = Math.round(waveFigureX(sec, { start: 0, end: duration }, width));
    // 3 px into the A + B lane, above the waveform's reach; the marker is #d0021b, the background white.
    const y = waveFigureLanes(height).ab[0] + 3;
    const [r0, g0, b0] = await overlayPixel(x, y);
    expect(r0).toBeGreaterThan(180);
    expect(g0 + b0).toBeLessThan(160);
    expect(await overlayPixel(x - 25, y)).not.toEqual([r0, g0, b0]);
  });

  it('plays A (currentTime advances); the switch (button, then S) moves to the other take at the same position, playing on', async () => {
    await page.getByTestId('player-a').evaluate((el) => (el as unknown as MediaEl).play());
    await expect.poll(async () => (await media('a')).t, { timeout: 10_000 }).toBeGreaterThan(0.2);
    await page.getByTestId('switch-ab').click();
    const [a, b] = await mediaPair('a', 'b');
    expect(a.paused).toBe(true);
    // B starts where A stopped; since the click B may have played on a little (a slow machine: a few frames).
    expect(b.t).toBeGreaterThanOrEqual(a.t - 0.01);
    expect(b.t - a.t).toBeLessThan(0.15);
    await expect.poll(async () => (await media('b')).t, { timeout: 10_000 }).toBeGreaterThan(b.t + 0.1);
    expect((await media('b')).paused).toBe(false);
    // The S key switches back the same way.
    await page.locator('h1').click();
    await page.keyboard.press('s');
    const [b2, a2] = await mediaPair('b', 'a');
    expect(b2.paused).toBe(true);
    expect(a2.t).toBeGreaterThanOrEqual(b2.t - 0.01);
    expect(a2.t - b2.t).toBeLessThan(0.15);
    await expect.poll(async () => (await media('a')).paused, { timeout: 10_000 }).toBe(false);
  });

  it('loudness matching turns the louder take down by |ΔLU| (report.json loudnessDeltaLU = B − A)', async () => {
    const delta = report().metrics.loudnessDeltaLU;
    const volumes = () => page.evaluate(`['a', 'b'].map((t) => document.querySelector('[data-testid=player-' + t + ']').volume)`) as Promise<number[]>;
    expect(await volumes()).toEqual([1, 1]);
    await page.getByTestId('match-loudness').check();
    const down = 10 ** (-Math.abs(delta) / 20);
    const [a, b] = await volumes();
    // HTMLMediaElement.volume is a double: the gain comes back as set (1e-9 covers the decimal round trip).
    expect(Math.abs((delta > 0 ? b : a) - down)).toBeLessThan(1e-9);
    expect(delta > 0 ? a : b).toBe(1);
    await page.getByTestId('match-loudness').uncheck();
    expect(await volumes()).toEqual([1, 1]);
  });

  it('plays the difference at its real level (volume = its peak, as it is embedded at full scale) unless asked for full scale', async () => {
    const diffMax = Math.max(...decodeWav(new Uint8Array(readFileSync(join(out, 'diff.wav'))), 'diff.wav').channels[0].map(Math.abs));
    const volume = () => page.evaluate(`document.querySelector('[data-testid=player-diff]').volume`) as Promise<number>;
    // The page's peak comes from the float samples, as diff.wav holds them (float32 both ways).
    expect(Math.abs((await volume()) - diffMax)).toBeLessThan(1e-6);
    await page.getByTestId('diff-full-scale').check();
    expect(await volume()).toBe(1);
    await page.getByTestId('diff-full-scale').uncheck();
  });

  it('a zoom changes the view: a shorter time range and different pixels', async () => {
    // Stopped first, so the moving playhead cannot be what changes the pixels.
    for (const take of ['a', 'b', 'diff']) await page.getByTestId(`player-${take}`).evaluate((el) => (el as unknown as MediaEl).pause());
    const overlay = page.getByTestId('overlay');
    expect((await overlay.screenshot()).equals(await overlay.screenshot())).toBe(true);
    const before = { from: Number(await overlay.getAttribute('data-from-sec')), to: Number(await overlay.getAttribute('data-to-sec')) };
    const pixelsBefore = await overlay.screenshot();
    await page.getByTestId('zoom-in').click();
    const after = { from: Number(await overlay.getAttribute('data-from-sec')), to: Number(await overlay.getAttribute('data-to-sec')) };
    expect(after.to - after.from).toBeCloseTo((before.to - before.from) / 2, 6);
    expect((await overlay.screenshot()).equals(pixelsBefore)).toBe(false);
    expect(problems).toEqual([]);
  });

  it('past the embedding limit, says so and plays the fixture’s own WAVs beside it', async () => {
    // The same fixture's page made with a 1 kB limit (the real one is 32 MiB: too big for a test).
    const r = report();
    const wav = (name: string) => decodeWav(new Uint8Array(readFileSync(join(out, name))), name).channels[0];
    const audio = { a: wav('a.wav'), b: wav('b.wav'), diff: wav('diff.wav'), sampleRate: r.metrics.sampleRate };
    const data = { ...reportPageData(r, readFileSync(join(out, 'report.md'), 'utf8'), r.a.frameRate), audio: pageAudio(audio, r.metrics.loudnessDeltaLU, 1000) };
    writeFileSync(join(out, 'beside.html'), renderReportHtml(data));
    const seen: string[] = [];
    page.on('request', (req) => seen.push(req.url()));
    await page.goto(pathToFileURL(join(out, 'beside.html')).href);
    expect(await page.getByTestId('audio-note').textContent()).toContain("past this page's embedding limit");
    await page.getByTestId('player-a').evaluate((el) => (el as unknown as MediaEl).play());
    await expect.poll(async () => (await media('a')).t, { timeout: 10_000 }).toBeGreaterThan(0.2);
    expect(seen).toContain(pathToFileURL(join(out, 'a.wav')).href);
    expect(seen.filter((u) => !u.startsWith('file:') && !u.startsWith('blob:') && !u.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
  });
});

