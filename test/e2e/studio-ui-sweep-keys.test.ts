import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseKey } from '../../electron/common/sweep/sweep-case.js';
import { stringifySummary } from '../../electron/common/sweep/sweep-summary.js';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';
import { syntheticSweep } from './synthetic-sweep.js';

// The sweep scatter with the keyboard only: Tab reaches it (one tab stop with an accessible name), the
// arrows and Home/End move a visible ring between the dots and the card names the case, Enter opens it.
// Screenshots of the focused scatter at 1440×900 and 1024×700.
const SHOTS = 'test-results';
const summary = syntheticSweep(40);
// The lowest correlation is the leftmost dot, where Home goes (computed from the cases, not the chart).
const placed = summary.cases.filter((c) => c.correlation !== null && c.loudnessDeltaLU !== null && Number.isFinite(c.loudnessDeltaLU));
const lowest = placed.reduce((m, c) => (c.correlation! < m.correlation! ? c : m));

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'parity-ui-sweep-keys-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(dir, 'sweep.json'), stringifySummary(summary));
  ({ served, browser, page } = await startStudio(join(dir, 'data'), problems, { width: 1440, height: 900 }));
}, 120_000);
afterAll(async () => {
  await stopStudio(browser, served);
  rmSync(dir, { recursive: true, force: true });
});

const focusedTestId = () => page.evaluate("document.activeElement && document.activeElement.getAttribute('data-testid')") as Promise<string | null>;
const ringKey = () => page.getByTestId('sweep-dot-ring').getAttribute('data-key');
const ringLeft = async () => parseFloat((await page.getByTestId('sweep-dot-ring').getAttribute('style'))!.match(/left: ([\d.]+)%/)![1]);
const cardKey = () => page.getByTestId('sweep-card').locator('strong').textContent();
/** The scatter caption's text lines, and the px from its last line down to the plot frame and to the focused chart's outline. */
const captionRoom = () =>
  page.evaluate(`(() => {
    const fig = document.querySelector('.sweep-scatter-figure');
    const range = document.createRange();
    range.selectNodeContents(fig.querySelector('figcaption'));
    const rects = [...range.getClientRects()];
    const bottom = Math.max(...rects.map((r) => r.bottom));
    const box = fig.querySelector('.sweep-scatter-box');
    const s = getComputedStyle(box);
    return {
      lines: new Set(rects.map((r) => Math.round(r.top))).size,
      toFrame: fig.querySelector('[data-testid="sweep-scatter"] rect').getBoundingClientRect().top - bottom,
      toOutline: box.getBoundingClientRect().top - parseFloat(s.outlineOffset) - parseFloat(s.outlineWidth) - bottom,
    };
  })()`) as Promise<{ lines: number; toFrame: number; toOutline: number }>;

describe('studio UI in Chromium: the sweep scatter by keyboard', () => {
  it('Tab reaches the scatter; arrows, Home and End move between dots with a visible ring and a card; Enter opens the case', async () => {
    await page.getByLabel('Open sweep.json…').setInputFiles(join(dir, 'sweep.json'));
    await page.getByTestId('sweep-summary').waitFor({ timeout: 10_000 });
    const scatter = page.getByRole('group', { name: /^Correlation against ΔLU, \d+ dots: arrow keys move between cases, Enter opens one$/ });
    expect(await scatter.count()).toBe(1);
    let presses = 0;
    while ((await focusedTestId()) !== 'sweep-scatter-keys') {
      expect(++presses, 'Tab presses to reach the scatter').toBeLessThan(60);
      await page.keyboard.press('Tab');
    }
    // Focus is visible on the chart itself before any dot is chosen.
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    expect(await page.getByTestId('sweep-dot-ring').count()).toBe(0);

    await page.keyboard.press('Home');
    expect(await ringKey()).toBe(caseKey(lowest));
    expect(await cardKey()).toBe(caseKey(lowest));
    const homeLeft = await ringLeft();
    await page.keyboard.press('ArrowRight');
    expect(await ringKey()).not.toBe(caseKey(lowest));
    expect(await ringLeft()).toBeGreaterThan(homeLeft);
    expect(await cardKey()).toBe(await ringKey());
    await page.keyboard.press('End');
    expect(Number(/correlation (-?[\d.]+)/.exec((await page.getByTestId('sweep-card').textContent())!)![1])).toBeGreaterThan(0.999);
    await page.keyboard.press('Home');
    // The caption wraps to two lines at both sizes; its second line clears the focus outline and, by more, the plot frame.
    const room1440 = await captionRoom();
    await page.screenshot({ path: `${SHOTS}/ui-sweep-keys-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await scatter.scrollIntoViewIfNeeded();
    const room1024 = await captionRoom();
    await page.screenshot({ path: `${SHOTS}/ui-sweep-keys-1024.png` });
    for (const room of [room1440, room1024]) {
      expect(room.lines, JSON.stringify(room)).toBe(2);
      expect(room.toOutline, JSON.stringify(room)).toBeGreaterThanOrEqual(3);
      expect(room.toFrame, JSON.stringify(room)).toBeGreaterThanOrEqual(12);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    // Escape lets go of the dot, the focus stays on the chart.
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('sweep-dot-ring').count()).toBe(0);
    expect(await focusedTestId()).toBe('sweep-scatter-keys');

    // Enter on a dot opens its case: one more history entry, and the form holds that case's prompt.
    await page.keyboard.press('Home');
    const entries = () => page.locator('[data-testid="history-list"] > li').count();
    const before = await entries();
    await page.keyboard.press('Enter');
    await expect.poll(entries, { timeout: 60_000 }).toBe(before + 1);
    expect(await page.getByLabel('Prompt', { exact: true }).inputValue()).toBe(lowest.text);
    expect(problems).toEqual([]);
  }, 120_000);
});
