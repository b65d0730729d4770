/**
 * Browser benchmark: a 10-minute 24 kHz WAV pair is imported through the studio UI (browser mode,
 * real `parity serve`), then the shared timeline is swept through 48 zoom levels (fit → 4000 px/s →
 * fit) and scrolled end to end at 200 px/s. Each step is one animation frame; we report the interval
 * between frames (with Chromium's frame-rate cap off, so it is the real frame time) and the main-thread
 * time spent inside the zoom/scroll call plus layout. Prints one JSON object. Not a timed assertion.
 *
 *   npm run bench:ui            (or: npx tsx test/e2e/bench-zoom.ts)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
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

buildOnce();
const dir = mkdtempSync(join(tmpdir(), 'bench-ui-'));
const [pa, pb] = pair(dir);
const served = await startServe(['--data-dir', dir]);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, '--disable-frame-rate-limit', '--disable-gpu-vsync'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(served.url);
  await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
  const t0 = Date.now();
  await page.getByLabel('Open WAV or trace files').setInputFiles([pa, pb]);
  await page.getByTestId('waveform-ab').locator('canvas').first().waitFor({ timeout: 300_000 });
  const importMs = Date.now() - t0;
  // Plain JavaScript run in the page (this file is type-checked without the DOM library).
  const result = (await page.evaluate(`(async () => {
    const store = window.__studio.store;
    const host = document.querySelector('[data-testid="waveform-ab"] > div');
    const scroller = host.shadowRoot.querySelector('.scroll');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const levels = [];
    for (let i = 0; i < 24; i++) levels.push(2 * (4000 / 2) ** (i / 23));
    const sweep = [...levels, ...levels.slice().reverse()];
    const frameMs = [];
    const workMs = [];
    let last = await frame();
    for (const z of sweep) {
      const w0 = performance.now();
      store.getState().setZoom(z);
      void scroller.scrollWidth; // force layout
      workMs.push(performance.now() - w0);
      const now = await frame();
      frameMs.push(now - last);
      last = now;
    }
    store.getState().setZoom(200);
    await frame();
    const scrollFrameMs = [];
    const scrollWorkMs = [];
    const step = scroller.clientWidth * 0.5;
    last = await frame();
    for (let x = 0; x < Math.min(scroller.scrollWidth, 400 * step); x += step) {
      const w0 = performance.now();
      scroller.scrollLeft = x;
      scroller.dispatchEvent(new Event('scroll'));
      void scroller.scrollWidth;
      scrollWorkMs.push(performance.now() - w0);
      const now = await frame();
      scrollFrameMs.push(now - last);
      last = now;
    }
    return { frameMs, workMs, scrollFrameMs, scrollWorkMs, scrollWidth: scroller.scrollWidth };
})()`)) as { frameMs: number[]; workMs: number[]; scrollFrameMs: number[]; scrollWorkMs: number[]; scrollWidth: number };
  console.log(
    JSON.stringify(
      {
        bench: 'studio zoom/scroll, 10-minute 24 kHz pair',
        importAndFirstDrawMs: importMs,
        zoomSweep: { levels: '2 → 4000 → 2 px/s, 48 steps', frameMs: stats(result.frameMs), workMs: stats(result.workMs) },
        scroll: { pxPerSec: 200, scrollWidthPx: result.scrollWidth, frameMs: stats(result.scrollFrameMs), workMs: stats(result.scrollWorkMs) },
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
