import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringifySummary } from '../../electron/common/sweep/sweep-summary.js';
import type { Served } from './serve-process.js';
import { scatterPoint, startStudio, stopStudio } from './studio-ui-helpers.js';
import { syntheticSweep } from './synthetic-sweep.js';

// Issue 28 in Chromium: the window never scrolls as a document (1440×900 and 1024×700, after a
// comparison, a drill and a sweep); a new result's verdict in view and focused; the step trace's band
// labels never overlap; the spectrogram's dB colour bar and frequency ticks; the sweep dashboard in the main view (1,000 cases: counts, histogram and scatter
// with round ticks, hover card, filter, sort, a case and back with the filters kept, a second sweep beside).
const SHOTS = 'test-results';
const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
];

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'parity-ui-layout-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(dir, 'after.json'), stringifySummary(syntheticSweep(1000)));
  writeFileSync(join(dir, 'before.json'), stringifySummary(syntheticSweep(1000, { shift: 0.08 })));
  ({ served, browser, page } = await startStudio(join(dir, 'data'), problems, SIZES[0]));
}, 120_000);
afterAll(async () => {
  await stopStudio(browser, served);
  rmSync(dir, { recursive: true, force: true });
});

/** The document's scroll height and the window's, at each size (the same page resized). */
async function documentHeights(): Promise<{ size: string; scrollHeight: number; innerHeight: number; scrollWidth: number; innerWidth: number }[]> {
  const out = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    const m = (await page.evaluate('({ scrollHeight: document.scrollingElement.scrollHeight, innerHeight, scrollWidth: document.scrollingElement.scrollWidth, innerWidth })')) as { scrollHeight: number; innerHeight: number; scrollWidth: number; innerWidth: number };
    out.push({ size: `${size.width}×${size.height}`, ...m });
  }
  await page.setViewportSize(SIZES[0]);
  return out;
}

function expectNoDocumentScroll(heights: Awaited<ReturnType<typeof documentHeights>>): void {
  for (const h of heights) {
    expect(h.scrollHeight, h.size).toBe(h.innerHeight);
    expect(h.scrollWidth, h.size).toBe(h.innerWidth);
  }
}

const focusedId = () => page.evaluate('document.activeElement && document.activeElement.id') as Promise<string>;
const resultsTop = () => page.evaluate("document.getElementById('results').scrollTop") as Promise<number>;

async function synthesize(profileB: string): Promise<void> {
  const before = await page.locator('[data-history-id]').count();
  await page.getByLabel('Prompt').fill('Hello world');
  await page.getByLabel('Profile A').fill('graph');
  await page.getByLabel('Profile B', { exact: true }).fill(profileB);
  await page.getByRole('button', { name: 'Synthesize A/B' }).click();
  await expect.poll(() => page.locator('[data-history-id]').count(), { timeout: 60_000 }).toBe(before + 1);
}

/** The codes lane's rows are at least `rowPx` high (8 codebooks) and its codebook labels are `labels`, none overlapping the next. */
async function expectReadableCodes(rowPx: number, labels: string[]): Promise<void> {
  await expect.poll(async () => (await page.getByTestId('codes-lane').boundingBox())!.height).toBeGreaterThanOrEqual(8 * rowPx);
  const axis = page.getByTestId('codebook-axis').locator('span');
  expect(await axis.allTextContents()).toEqual(labels);
  const boxes = await Promise.all((await axis.all()).map(async (l) => (await l.boundingBox())!));
  for (let i = 1; i < boxes.length; i++) expect(boxes[i].y).toBeGreaterThanOrEqual(boxes[i - 1].y + boxes[i - 1].height);
}

describe('studio UI in Chromium: layout, results in view, sweep dashboard', () => {
  it('a comparison and a drill: no document scroll at either size; the verdict focused at the top; step labels apart; at 1024×700 lanes, transport and tabs in view', async () => {
    await synthesize('graph,fault=nan@talker:4');
    await expect.poll(focusedId).toBe('verdict');
    expect(await resultsTop()).toBe(0);
    // A NaN run's statistics are not "equal at every step": the line names the non-finite values.
    expect(await page.getByTestId('closeness').textContent()).toMatch(/^Largest differences: B non-finite from step 4 \(talker: [1-9]\d* NaN\);/);
    expectNoDocumentScroll(await documentHeights());
    await page.setViewportSize(SIZES[1]);
    await page.screenshot({ path: `${SHOTS}/ui-layout-ab-1024.png` });
    for (const id of ['codes-lane', 'transport']) {
      const box = (await page.getByTestId(id).boundingBox())!;
      expect(box.y + box.height, id).toBeLessThanOrEqual(700);
    }
    const tabs = (await page.getByRole('tablist', { name: 'Details' }).boundingBox())!;
    expect(tabs.y + tabs.height).toBeLessThanOrEqual(700);
    // The codes lane: a row of at least 8 px per codebook (the demo has 8), numbered beside it without overlap.
    await expectReadableCodes(8, ['0', '2', '4', '6']);
    await page.setViewportSize(SIZES[0]);
    await expectReadableCodes(12, ['0', '1', '2', '3', '4', '5', '6', '7']);
    await page.screenshot({ path: `${SHOTS}/ui-layout-ab-1440.png` });
    // Taller codes: twice the rows' height; the results pane scrolls, never the document.
    await page.getByRole('button', { name: 'Taller codes' }).click();
    await expectReadableCodes(24, ['0', '1', '2', '3', '4', '5', '6', '7']);
    expectNoDocumentScroll(await documentHeights());
    await page.getByRole('button', { name: 'Taller codes' }).click();
    await expect.poll(async () => (await page.getByTestId('codes-lane').boundingBox())!.height).toBe(8 * 12);

    // Spectrograms: a dB colour bar with its ticks, and frequency ticks beside each lane.
    await page.getByRole('button', { name: 'Spectrogram' }).click();
    await page.getByTestId('specA').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('spectro-scale').locator('.spectro-scale-ticks span').allTextContents()).toEqual(['−100', '−80', '−60', '−40', '−20', '0 dBFS']);
    expect(await page.getByTestId('freq-axis').first().locator('span').allTextContents()).toEqual(['3 kHz', '6 kHz', '9 kHz']);
    await page.screenshot({ path: `${SHOTS}/ui-layout-spectrograms-1440.png` });
    await page.getByRole('button', { name: 'Spectrogram' }).click();

    // B holds NaN from step 4 on: one label for the run, and no two label boxes overlap.
    await page.getByRole('tab', { name: 'Step trace' }).click();
    const chart = page.locator('[data-band-labels]');
    await chart.waitFor();
    const labels = JSON.parse((await chart.getAttribute('data-band-labels'))!) as [number, number, string][];
    expect(labels.length).toBeGreaterThanOrEqual(1);
    expect(labels[0][2]).toMatch(/^B (NaN|Inf)/);
    for (let i = 1; i < labels.length; i++) expect(labels[i][0]).toBeGreaterThan(labels[i - 1][1]);

    await page.getByRole('button', { name: /^Drill down/ }).click();
    await page.getByTestId('drill-svg').waitFor({ timeout: 60_000 });
    expectNoDocumentScroll(await documentHeights());
    await page.screenshot({ path: `${SHOTS}/ui-layout-drill-1440.png` });

    // Scrolled down to the drill, a new comparison opens at its verdict, focused.
    expect(await resultsTop()).toBeGreaterThan(0);
    await synthesize('graph,fault=stale-feedback@2');
    await expect.poll(focusedId).toBe('verdict');
    expect(await resultsTop()).toBe(0);
    expect(await page.getByTestId('closeness').textContent()).toMatch(/^Largest differences: logit \|Δ\|/);
    expect(problems).toEqual([]);
  }, 180_000);

  it('a 1,000-case sweep in the main view: counts, round ticks, hover card, filter, sort, a case and back with the filters kept, a second sweep beside', async () => {
    await page.getByLabel('Open sweep.json…').setInputFiles(join(dir, 'after.json'));
    await page.getByTestId('sweep-summary').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('waveform-ab').count()).toBe(0);
    await expect.poll(focusedId).toBe('sweep-title');
    const diverged = Number(await page.getByTestId('sweep-count-diverged').textContent());
    expect(diverged).toBeGreaterThan(100);
    expectNoDocumentScroll(await documentHeights());
    // Real bins and round ticks: more than the two ends on each axis.
    expect(await page.getByTestId('sweep-bin').count()).toBeGreaterThan(5);
    expect(await page.locator('[data-testid="sweep-histogram"] [data-tick="x"]').count()).toBeGreaterThan(2);
    const xTicks = await page.locator('[data-testid="sweep-scatter"] [data-tick="x"]').allTextContents();
    expect(xTicks.length).toBeGreaterThan(2);
    expect(xTicks.map((t) => Number(t.replace('−', '-'))).every((t) => t <= 1)).toBe(true);
    // The first case's dot, where its correlation and ΔLU put it: the card names a case there (it or one drawn over it).
    const cells = await page.getByTestId('sweep-case').first().locator('td').allTextContents();
    const at = await scatterPoint(page, Number(cells[5]), Number(cells[6]));
    await page.mouse.move(at.x, at.y);
    const card = (await page.getByTestId('sweep-card').textContent())!;
    expect(card).toMatch(/@\d.*correlation/);
    expect(Math.abs(Number(/correlation (-?[\d.]+)/.exec(card)![1]) - Number(cells[5]))).toBeLessThan(0.03);
    await page.screenshot({ path: `${SHOTS}/ui-sweep-dashboard-1440.png` });
    await page.setViewportSize(SIZES[1]);
    await page.screenshot({ path: `${SHOTS}/ui-sweep-dashboard-1024.png` });
    await page.setViewportSize(SIZES[0]);
    // A drag from the plot's empty top-left corner to its middle zooms to that box; Reset zoom undoes it.
    const [x0, x1, y0, y1] = (await page.getByTestId('sweep-scatter').getAttribute('data-domain'))!.split(' ').map(Number);
    const from = await scatterPoint(page, x0 + 0.005 * (x1 - x0), y1 - 0.005 * (y1 - y0));
    const to = await scatterPoint(page, (x0 + x1) / 2, (y0 + y1) / 2);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('sweep-shown').textContent()).toMatch(/^\d+ of 1000 cases \(scatter zoomed\)$/);
    expect(Number((await page.getByTestId('sweep-shown').textContent())!.split(' ')[0])).toBeLessThan(1000);
    await page.getByRole('button', { name: 'Reset zoom' }).click();
    await expect.poll(() => page.getByTestId('sweep-shown').textContent()).toBe('1000 of 1000 cases');

    await page.getByRole('button', { name: /diverged$/ }).click();
    await expect.poll(() => page.getByTestId('sweep-shown').textContent()).toBe(`${diverged} of 1000 cases`);
    await page.getByRole('button', { name: /^Corr\./ }).click();
    const corr = async () => (await page.getByTestId('sweep-case').locator('td:nth-child(6)').allTextContents()).slice(0, 5).map(Number);
    const first = await corr();
    expect(first).toEqual([...first].sort((x, y) => x - y));
    await page.getByLabel('Search').fill('p0001');
    const shown = await page.getByTestId('sweep-shown').textContent();
    expect(Number(shown!.split(' ')[0])).toBeLessThan(diverged);
    const key = (await page.getByTestId('sweep-case').first().locator('td').first().textContent())!;
    // The case's own result: one more history entry (the verdict on screen may still be the last test's).
    const historyEntries = () => page.locator('[data-testid="history-list"] > li').count();
    const entriesBefore = await historyEntries();
    await page.getByRole('button', { name: `Open case ${key}` }).click();
    await expect.poll(historyEntries, { timeout: 60_000 }).toBe(entriesBefore + 1);
    await expect.poll(() => page.getByTestId('verdict').textContent()).toMatch(/^(Diverged|Within|Identical)/);
    await expect.poll(focusedId).toBe('verdict');
    await page.getByRole('button', { name: '← Back to sweep' }).click();
    expect(await page.getByTestId('sweep-shown').textContent()).toBe(shown);
    expect(await page.getByLabel('Search').inputValue()).toBe('p0001');
    expect(await page.getByRole('button', { name: /diverged$/ }).getAttribute('aria-pressed')).toBe('true');
    // Back to the sweep before the case has finished: its result goes to history, the dashboard stays.
    await page.getByRole('button', { name: `Open case ${key}` }).click();
    await page.getByRole('button', { name: '← Back to sweep' }).click();
    await expect.poll(historyEntries, { timeout: 60_000 }).toBe(entriesBefore + 2);
    expect(await page.getByTestId('sweep-shown').textContent()).toBe(shown);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Compare with another sweep.json…').setInputFiles(join(dir, 'before.json'));
    const changed = Number((await page.getByTestId('sweep-changed').locator('strong').textContent())!);
    expect(changed).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('sweep-case').first().getAttribute('class')).toContain('sweep-changed');
    await page.getByLabel('Changed verdicts only').check();
    expect(await page.getByTestId('sweep-shown').textContent()).toBe(`${changed} of 1000 cases`);
    expectNoDocumentScroll(await documentHeights());
    await page.screenshot({ path: `${SHOTS}/ui-sweep-beside-1440.png` });
    expect(problems).toEqual([]);
  }, 180_000);
});
