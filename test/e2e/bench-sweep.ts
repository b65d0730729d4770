/**
 * Browser benchmark of the sweep dashboard (browser mode, real `parity serve`, Chromium at 1440×900):
 * a merged sweep of BENCH_SWEEP_CASES (default 10,000) synthetic cases (synthetic-sweep.ts, through the
 * real merge) is opened through the "Open sweep.json…" input.
 *
 * **First paint**: from the files handed to the input to the first animation frame at which the scatter
 * holds its dots and the table its first rows. **Filter**: one store action (a verdict, a stage, a text
 * search, a sort, clearing them) to the next frame after React committed it (the count line updated),
 * each repeated BENCH_SWEEP_REPEATS times (default 5). **Scroll**: the table scrolled through 200 steps
 * of 300 px, one frame each. Prints one JSON object. Not a timed assertion.
 *
 *   npm run bench:ui   (runs bench-zoom.ts, then this; alone: npx tsx test/e2e/bench-sweep.ts)
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { stringifySummary } from '../../electron/common/sweep/sweep-summary.js';
import { buildOnce } from './build-once.js';
import { startServe } from './serve-process.js';
import { CHROMIUM_FLAGS } from './studio-ui-helpers.js';
import { syntheticSweep } from './synthetic-sweep.js';

const CASES = Number(process.env.BENCH_SWEEP_CASES ?? 10_000);
const REPEATS = Number(process.env.BENCH_SWEEP_REPEATS ?? 5);

const stats = (xs: number[]) => {
  const s = [...xs].sort((p, q) => p - q);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  return { n: s.length, median: +q(0.5).toFixed(1), p90: +q(0.9).toFixed(1), max: +s[s.length - 1].toFixed(1) };
};

buildOnce();
const dir = mkdtempSync(join(tmpdir(), 'bench-sweep-'));
const file = join(dir, 'sweep.json');
writeFileSync(file, stringifySummary(syntheticSweep(CASES)));
const served = await startServe(['--data-dir', dir]);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, '--disable-frame-rate-limit', '--disable-gpu-vsync'] });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(served.url);
  await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
  const firstPaints: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.evaluate('window.__studio.store.getState().closeSweep()');
    await page.evaluate(`window.__benchOpen = new Promise((resolve) => {
      const t0 = performance.now();
      const tick = () => {
        const drawn = Number(document.querySelector('[data-testid="sweep-dots"]')?.dataset.dots ?? 0) > 0 && document.querySelectorAll('[data-testid="sweep-case"]').length > 0;
        if (drawn) resolve(Math.round(performance.now() - t0)); else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    }); 0`);
    await page.getByLabel('Open sweep.json…').setInputFiles(file);
    firstPaints.push((await page.evaluate('window.__benchOpen')) as number);
  }
  // Plain JavaScript run in the page (this file is type-checked without the DOM library).
  const result = (await page.evaluate(`(async () => {
    const store = window.__studio.store;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const shown = () => document.querySelector('[data-testid="sweep-shown"]').textContent;
    const time = async (action) => {
      const before = shown();
      const t0 = performance.now();
      action();
      await frame();
      await frame();
      return { ms: performance.now() - t0, changed: shown() !== before };
    };
    const clear = () => { store.getState().setSweepFilter({ verdict: 'all', stage: 'all', flip: 'all', text: '', changedOnly: false }); };
    const out = { verdict: [], stage: [], search: [], sort: [], clear: [] };
    for (let i = 0; i < ${REPEATS}; i++) {
      out.verdict.push((await time(() => store.getState().setSweepFilter({ verdict: 'diverged' }))).ms);
      out.stage.push((await time(() => store.getState().setSweepFilter({ stage: 'code-predictor' }))).ms);
      out.search.push((await time(() => store.getState().setSweepFilter({ text: 'p012' }))).ms);
      out.clear.push((await time(clear)).ms);
      out.sort.push((await time(() => store.getState().sortSweep('correlation'))).ms);
    }
    const wrap = document.querySelector('[data-testid="sweep-table"]');
    const scroll = [];
    let last = await frame();
    for (let i = 0; i < 200; i++) {
      wrap.scrollTop = (i * 300) % Math.max(1, wrap.scrollHeight - wrap.clientHeight);
      wrap.dispatchEvent(new Event('scroll'));
      const now = await frame();
      scroll.push(now - last);
      last = now;
    }
    return { ...out, scroll, rowsInDom: document.querySelectorAll('[data-testid="sweep-case"]').length, dots: Number(document.querySelector('[data-testid="sweep-dots"]').dataset.dots) };
  })()`)) as Record<'verdict' | 'stage' | 'search' | 'sort' | 'clear' | 'scroll', number[]> & { rowsInDom: number; dots: number };
  console.log(
    JSON.stringify(
      {
        bench: `studio sweep dashboard, ${CASES} synthetic cases (browser mode, 1440×900)`,
        firstPaintMs: { from: 'the sweep.json handed to the file input', runs: firstPaints },
        filterMs: { verdict: stats(result.verdict), stage: stats(result.stage), search: stats(result.search), clear: stats(result.clear), sortByCorrelation: stats(result.sort) },
        tableScroll: { steps: 200, frameMs: stats(result.scroll) },
        rowsInDom: result.rowsInDom,
        dotsDrawn: result.dots,
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
