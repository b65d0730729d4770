/**
 * Browser benchmark: a 10-minute 24 kHz WAV pair is imported through the studio UI (browser mode,
 * real `parity serve`), the spectrograms are turned on, then the shared viewport is swept through 100
 * zoom levels (2 px/s → single samples → 2 px/s), scrolled 300 half-views at 200 px/s, and hovered 200
 * times. Each step is one animation frame; we report the interval between frames (Chromium's frame-rate
 * cap off, so it is the real frame time: every lane redrawn) and the JS heap before and after the zoom
 * sweep. Prints one JSON object. Not a timed assertion.
 *
 * Opening is timed from the import action (files handed to the page's file input) to two points, each
 * read at an animation frame in the page: **first paint**, the first frame after the A/B waveform lane
 * is on screen (both takes drawn), and **full results**, the first frame at which the comparison on
 * screen is the host's (a history entry: metrics, verdict, aligned difference). The pair is opened
 * BENCH_OPENS times (default 3) in the same page; BENCH_OPEN_ONLY=1 stops after the opens.
 *
 *   npm run bench:ui            (or: npx tsx test/e2e/bench-zoom.ts; BENCH_SPECTROGRAMS=0 leaves them off)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import { buildOnce } from './build-once.js';
import { startServe } from './serve-process.js';
import { CHROMIUM_FLAGS } from './studio-ui-helpers.js';

const RATE = 24_000;
const SECONDS = 600;

function pair(dir: string): [string, string] {
  const n = RATE * SECONDS;
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  // A speech-like envelope over a 150 Hz buzz; B adds a faint 2 kHz tone so the pair differs.
  for (let i = 0; i < n; i++) {
    const t = i / RATE;
    const env = 0.5 + 0.5 * Math.sin(2 * Math.PI * 3 * t) * Math.sin(2 * Math.PI * 0.21 * t);
    a[i] = 0.4 * env * Math.sin(2 * Math.PI * 150 * t + 0.3 * Math.sin(2 * Math.PI * 5 * t));
    b[i] = a[i] + 0.01 * Math.sin(2 * Math.PI * 2000 * t);
  }
  const pa = join(dir, 'ten-min-a.wav');
  const pb = join(dir, 'ten-min-b.wav');
  writeFileSync(pa, encodeWav([a], RATE, 'pcm16'));
  writeFileSync(pb, encodeWav([b], RATE, 'pcm16'));
  return [pa, pb];
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  return { n: s.length, median: +q(0.5).toFixed(2), p90: +q(0.9).toFixed(2), max: +s[s.length - 1].toFixed(2) };
};

/**
 * One import of the pair through the file input. Both times are read in the page at animation frames,
 * by one watcher started before the files are handed over (page clock): first paint at the first frame
 * whose A/B lane canvas holds pixels, full results at the first frame whose comparison on screen has its
 * history id (the host's result: metrics, verdict, aligned difference). A previous comparison on screen
 * is cleared first so its lanes are not mistaken for the new ones.
 */
async function openPair(page: Page, files: string[]): Promise<{ firstPaintMs: number; fullResultsMs: number }> {
  await page.evaluate('window.__studio.store.getState().clearComparison()');
  await page.getByTestId('waveform-ab').waitFor({ state: 'detached', timeout: 30_000 });
  await page.evaluate(`window.__benchOpen = new Promise((resolve) => {
    const t0 = performance.now();
    let firstPaint;
    // performance.now(), not the callback's frame timestamp, which is the frame's start and can be
    // older than a long task that delayed the callback (the decode, the host's answer).
    const tick = () => {
      const now = performance.now();
      if (firstPaint === undefined && ${WAVEFORMS_DRAWN}) firstPaint = now - t0;
      if (firstPaint !== undefined && window.__studio.store.getState().comparison?.historyId) resolve({ firstPaintMs: Math.round(firstPaint), fullResultsMs: Math.round(now - t0) });
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }); 0`);
  await page.getByLabel('Open WAV or trace files').setInputFiles(files);
  return (await page.evaluate('window.__benchOpen')) as { firstPaintMs: number; fullResultsMs: number };
}

/** Page code: the A/B lane's canvas holds drawn pixels (it is drawn at an animation frame after it mounts, A and B in one pass). */
const WAVEFORMS_DRAWN = `(() => {
  const c = document.querySelector('[data-testid="waveform-ab"]');
  if (!c || !c.width || !c.height) return false;
  const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  for (let i = 3; i < px.length; i += 4 * 13) if (px[i] > 0) return true;
  return false;
})()`;

const openStats = (opens: { firstPaintMs: number; fullResultsMs: number }[]) => ({
  from: 'the import action (files given to the file input)',
  firstPaintMs: opens.map((o) => o.firstPaintMs),
  fullResultsMs: opens.map((o) => o.fullResultsMs),
});

buildOnce();
const dir = mkdtempSync(join(tmpdir(), 'bench-ui-'));
const [pa, pb] = pair(dir);
const served = await startServe(['--data-dir', dir]);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, '--disable-frame-rate-limit', '--disable-gpu-vsync', '--enable-precise-memory-info'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(served.url);
  await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
  const opens: { firstPaintMs: number; fullResultsMs: number }[] = [];
  for (let i = 0; i < Number(process.env.BENCH_OPENS ?? 3); i++) opens.push(await openPair(page, [pa, pb]));
  if (process.env.BENCH_OPEN_ONLY === '1') {
    console.log(JSON.stringify({ bench: 'studio open of a 10-minute 24 kHz WAV pair (browser mode)', open: openStats(opens), chromium: 'headless, --disable-gpu (software raster)' }, null, 2));
    process.exit(0);
  }
  const spectrograms = process.env.BENCH_SPECTROGRAMS !== '0';
  if (spectrograms) {
    await page.getByRole('button', { name: 'Spectrogram' }).click();
    await page.getByTestId('specD').waitFor({ timeout: 30_000 });
  }
  // Plain JavaScript run in the page (this file is type-checked without the DOM library).
  const result = (await page.evaluate(`(async () => {
    const store = window.__studio.store;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const heap = () => (performance.memory ? performance.memory.usedJSHeapSize : NaN);
    const levels = [];
    for (let i = 0; i < 50; i++) levels.push(2 * (100000 / 2) ** (i / 49));
    const sweep = [...levels, ...levels.slice().reverse()];
    const frameMs = [];
    let last = await frame();
    const heapBefore = heap();
    for (const z of sweep) {
      store.getState().setZoom(z);
      const now = await frame();
      frameMs.push(now - last);
      last = now;
    }
    await frame();
    const heapAfter = heap();
    store.getState().setZoom(200);
    await frame();
    const scrollFrameMs = [];
    last = await frame();
    for (let i = 0; i < 300; i++) {
      store.getState().scrollBy(0.5);
      const now = await frame();
      scrollFrameMs.push(now - last);
      last = now;
    }
    const hoverFrameMs = [];
    const overlay = document.querySelector('[data-testid="lane-overlay"]');
    const box = overlay.getBoundingClientRect();
    last = await frame();
    for (let i = 0; i < 200; i++) {
      overlay.dispatchEvent(new PointerEvent('pointermove', { bubbles: true, clientX: box.left + (i * 5) % box.width, clientY: box.top + 40 }));
      const now = await frame();
      hoverFrameMs.push(now - last);
      last = now;
    }
    return { frameMs, scrollFrameMs, hoverFrameMs, heapBefore, heapAfter, lanes: document.querySelectorAll('canvas.lane').length };
})()`)) as { frameMs: number[]; scrollFrameMs: number[]; hoverFrameMs: number[]; heapBefore: number; heapAfter: number; lanes: number };
  console.log(
    JSON.stringify(
      {
        bench: `studio timeline zoom/scroll/hover, 10-minute 24 kHz pair, lanes: ruler, A/B, difference, loudness${spectrograms ? ', 3 spectrograms' : ' (BENCH_SPECTROGRAMS=0)'}`,
        open: openStats(opens),
        lanes: result.lanes,
        zoomSweep: { levels: '2 → 100000 → 2 px/s, 100 steps', frameMs: stats(result.frameMs), heapGrowthMB: +((result.heapAfter - result.heapBefore) / 2 ** 20).toFixed(1) },
        scroll: { pxPerSec: 200, steps: 300, frameMs: stats(result.scrollFrameMs) },
        hover: { moves: 200, frameMs: stats(result.hoverFrameMs) },
        chromium: 'headless, --disable-gpu (software raster), frame-rate limit off',
      },
      null,
      2,
    ),
  );
} finally {
  await browser.close();
  await served.stop();
}
