import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesLayout } from '../../renderer/src/lib/codes-layout.js';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio, writeImportFiles } from './studio-ui-helpers.js';

// The Codes tab stays mounted while the comparison on screen changes (DetailTabs keeps it across
// comparisons): a WAV import has no codes, so the grid's box is absent, and a synthesized comparison
// opened next must still get a grid sized to the box and following its resizes.
// 120 bytes, the demo talker's 115-frame cap: columns narrower than the 48 px cap, so the width shows.
const LONG = 'A long prompt so that the demo talker runs to its frame limit. '.repeat(2).slice(0, 120);

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-codes-'));

beforeAll(async () => {
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(() => stopStudio(browser, served));

interface GridState {
  box: number;
  canvas: [number, number];
  /** Alpha (0..255) of the pixel at the centre of the cell frame 1, codebook 0. */
  firstCellAlpha: number;
}

/** What the page shows: the scroll box's width, the canvas size, and whether the first cell is painted. */
async function gridState(): Promise<GridState> {
  // A string: the tests are typechecked without the DOM lib.
  return page.evaluate(`(() => {
    const box = document.querySelector('.codes-scroll');
    const c = document.querySelector('[data-testid=codes-grid]');
    const ctx = c.getContext('2d');
    return { box: box.clientWidth, canvas: [c.width, c.height], firstCellAlpha: ctx.getImageData(${codesLayout(1000, 1, 1).left} + 1, 8, 1, 1).data[3] };
  })()`);
}

/** The size codesLayout gives for the box's width and the frames × codebooks the panel states. */
async function expectedSize(box: number): Promise<[number, number]> {
  const m = /^(\d+) frames .* × (\d+) codebooks/.exec((await page.locator('.codes p.muted').first().textContent()) ?? '');
  expect(m).not.toBeNull();
  const layout = codesLayout(box, Number(m![1]), Number(m![2]));
  return [layout.width, layout.height];
}

describe('codes grid across comparisons (Codes tab kept open)', () => {
  it('a WAV import first (no codes, no box), then a synthesized entry: the grid draws, sized to the box, and follows a resize', async () => {
    await page.getByLabel('Prompt').fill(LONG);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    await page.locator('li.current[data-history-id]').waitFor({ timeout: 60_000 });
    const synthesized = (await page.locator('li.current[data-history-id]').getAttribute('data-history-id'))!;

    const files = writeImportFiles(join(dataDir, 'import'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([files.a, files.b]);
    await page.locator('li.current', { hasText: 'engine-a.wav vs engine-b.wav' }).waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Codes' }).click();
    await page.getByText('No codes: this comparison has no per-step records (WAV import).').waitFor();

    await page.locator(`li[data-history-id="${synthesized}"] button.link`).click();
    await page.getByTestId('codes-grid').waitFor({ timeout: 10_000 });
    // The box appears with the new comparison; its width must reach the grid (it stayed 0: nothing drawn).
    await expect.poll(async () => (await gridState()).firstCellAlpha, { timeout: 5_000 }).toBe(255);
    const drawn = await gridState();
    expect(drawn.box).toBeGreaterThan(0);
    expect(drawn.canvas).toEqual(await expectedSize(drawn.box));

    // Narrower window: the observer watches the box on screen now, so the grid is laid out again.
    await page.setViewportSize({ width: 900, height: 800 });
    await expect.poll(async () => (await gridState()).box, { timeout: 5_000 }).toBeLessThan(drawn.box);
    const narrowBox = (await gridState()).box;
    const narrowSize = await expectedSize(narrowBox);
    await expect.poll(async () => (await gridState()).canvas, { timeout: 5_000 }).toEqual(narrowSize);
    expect(narrowSize[0]).toBeLessThan(drawn.canvas[0]);
    expect(problems).toEqual([]);
  }, 120_000);
});
