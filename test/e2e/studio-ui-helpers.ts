import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { buildOnce } from './build-once.js';
import { startServe, type Served } from './serve-process.js';

export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Chromium with a fresh profile each launch (launch() uses a new temporary user-data-dir). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/** `parity serve` keeping history in `dataDir`, so a second server sees what the first saved. */
export function serveWithData(dataDir: string): Promise<Served> {
  return startServe(['--data-dir', dataDir]);
}

/**
 * Collects what a user's console would show as wrong: CSP violations (the page's own
 * securitypolicyviolation events and Chromium's console errors), failed requests (404) and page errors.
 */
export async function watchProblems(page: Page, problems: string[]): Promise<void> {
  // Runs in the page (tests are typechecked without the DOM lib, hence the string).
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' at ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber))",
  );
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
}

export async function openStudio(browser: Browser, served: Served, viewport = { width: 1280, height: 800 }, problems?: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport });
  if (problems) await watchProblems(page, problems);
  await page.goto(served.url);
  await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
  return page;
}

export interface StudioSession {
  served: Served;
  browser: Browser;
  page: Page;
}

/**
 * What each e2e file starts with: the tree built once, `parity serve` on `dataDir`, Chromium, and a
 * page on the studio whose problems (console errors, CSP, 404s) are collected in `problems`.
 */
export async function startStudio(dataDir: string, problems: string[], viewport?: { width: number; height: number }): Promise<StudioSession> {
  buildOnce();
  const served = await serveWithData(dataDir);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    return { served, browser, page: await openStudio(browser, served, viewport, problems) };
  } catch (error) {
    // Nothing is returned to stop, so stop here what was started (no parity serve left running).
    await stopStudio(browser, served);
    throw error;
  }
}

/** Closes what startStudio opened (either may be missing when the start failed); the server even if the browser fails to close. */
export async function stopStudio(browser: Browser | undefined, served: Served | undefined): Promise<void> {
  try {
    await browser?.close();
  } finally {
    await served?.stop();
  }
}

export interface TransportState {
  take: string;
  playing: boolean;
  position: number;
}

/** What the transport shows: the active take, whether it plays, the player's position (s). */
export async function transportState(page: Page): Promise<TransportState> {
  const t = page.getByTestId('transport');
  return {
    take: (await t.getAttribute('data-active-take')) ?? '',
    playing: (await t.getAttribute('data-playing')) === 'true',
    position: Number(await t.getAttribute('data-position')),
  };
}

/** The player's own clock (not the rendered attribute), read in the page. */
export function playerPosition(page: Page): Promise<number> {
  return page.evaluate(() => (globalThis as unknown as { __studio: { player: { position(): number } } }).__studio.player.position());
}

/** Two WAVs that differ by a tone burst in the second half, and a text file that is not a WAV. */
export function writeImportFiles(dir: string): { a: string; b: string; notWav: string } {
  mkdirSync(dir, { recursive: true });
  const rate = 24000;
  const n = rate * 2;
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = 0.3 * Math.sin((2 * Math.PI * 220 * i) / rate);
    b[i] = a[i] + (i > n / 2 ? 0.05 * Math.sin((2 * Math.PI * 1500 * i) / rate) : 0);
  }
  const paths = { a: join(dir, 'engine-a.wav'), b: join(dir, 'engine-b.wav'), notWav: join(dir, 'notes.txt') };
  writeFileSync(paths.a, encodeWav([a], rate, 'pcm16'));
  writeFileSync(paths.b, encodeWav([b], rate, 'pcm16'));
  writeFileSync(paths.notWav, 'this is not audio\n'.repeat(10));
  return paths;
}

/**
 * Two hand-written traces (docs/trace-format.md) and their WAVs, as test/cli/compare-trace.test.ts
 * writes them: B's talker logits jump at step 3 only (mean 13.2 vs 0.31, same codes); B's audio is
 * silenced over samples 5000–5099, which lie in frame floor(5000 / 1920) + 1 = 3 (1920 samples a frame
 * at 24 kHz and 12.5 frames/s).
 */
export function writeTraceImportFiles(dir: string): { traceA: string; traceB: string; wavA: string; wavB: string } {
  mkdirSync(dir, { recursive: true });
  const header = '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000}';
  const step = (n: number, mean: number, codes: [number, number]) =>
    `{"step":${n},"logits":{"mean":${mean},"std":2,"min":-5,"max":9,"argmax":${codes[0]},"top5":[{"id":${codes[0]},"logit":9}]},"codes":[${codes.join(',')}]}`;
  const trace = (mean3: number) => [header, step(1, 13.43, [5, 1]), step(2, 13.2, [7, 2]), step(3, mean3, [7, 3]), step(4, 13.1, [9, 4])].join('\n') + '\n';
  const rate = 24000;
  const a = Float32Array.from({ length: 4 * 1920 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / rate));
  const b = a.slice();
  b.fill(0, 5000, 5100);
  const paths = { traceA: join(dir, 'run-a.jsonl'), traceB: join(dir, 'run-b.jsonl'), wavA: join(dir, 'run-a.wav'), wavB: join(dir, 'run-b.wav') };
  writeFileSync(paths.traceA, trace(13.2));
  writeFileSync(paths.traceB, trace(0.31));
  writeFileSync(paths.wavA, encodeWav([a], rate, 'float32'));
  writeFileSync(paths.wavB, encodeWav([b], rate, 'float32'));
  return paths;
}

/**
 * Where the dot of a case at (correlation, ΔLU) is on the studio's sweep scatter, in page pixels: from
 * the plot box and axis ends its svg carries (the dots are on a canvas, so there is no element to find).
 */
export function scatterPoint(page: Page, correlation: number, deltaLU: number): Promise<{ x: number; y: number }> {
  return page.evaluate(`(() => {
    const svg = document.querySelector('[data-testid="sweep-scatter"]');
    const [left, top, w, h] = svg.dataset.plot.split(' ').map(Number);
    const [x0, x1, y0, y1] = svg.dataset.domain.split(' ').map(Number);
    const r = svg.getBoundingClientRect();
    const k = r.width / svg.viewBox.baseVal.width;
    return { x: r.left + k * (left + ((${correlation} - x0) / (x1 - x0)) * w), y: r.top + k * (top + h - ((${deltaLU} - y0) / (y1 - y0)) * h) };
  })()`) as Promise<{ x: number; y: number }>;
}

/**
 * Where the lane overlay stands: the x (CSS px, from the lanes' left) of time t, and the y of the A/B lane's top in
 * the overlay (seams are marked from there down through the difference lane).
 */
export const overlayGeometry = (page: Page, t: number) =>
  page.evaluate(`(() => {
    const s = window.__studio.store.getState();
    const overlay = document.querySelector('[data-testid="lane-overlay"]').getBoundingClientRect();
    const ab = document.querySelector('[data-testid="waveform-ab"]').getBoundingClientRect();
    return { x: Math.round(((${t} - s.viewport.start) / (s.viewport.end - s.viewport.start)) * s.laneWidth), abTop: ab.top - overlay.top, left: overlay.left, top: overlay.top };
  })()`) as Promise<{ x: number; abTop: number; left: number; top: number }>;

/** #00897b, the theme's seam colour (theme.ts), fully drawn (the overlay canvas is transparent elsewhere). */
const TEAL = 'd[i + 3] > 200 && d[i] < 40 && d[i + 1] > 110 && d[i + 1] < 170 && d[i + 2] > 90 && d[i + 2] < 160';

/** Teal (seam) pixels of the lane overlay (deviceScaleFactor 1: canvas pixels are CSS pixels), in the box or all of it. */
export const overlayTealCount = (page: Page, box?: { x: number; y: number; w: number; h: number }) =>
  page.evaluate(`(() => {
    const c = document.querySelector('[data-testid="lane-overlay"]');
    const b = ${JSON.stringify(box ?? null)} ?? { x: 0, y: 0, w: c.width, h: c.height };
    const d = c.getContext('2d').getImageData(b.x, b.y, b.w, b.h).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (${TEAL}) n++;
    return n;
  })()`) as Promise<number>;
