import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEAM_HALF_WIDTH } from '../../electron/common/draw/marks.js';
import { overlayGeometry, overlayTealCount, startStudio, stopStudio, type StudioSession } from './studio-ui-helpers.js';

// Seams at streaming-vocoder chunk boundaries on the studio's waveform lanes (docs/forensics.md "Seams"):
// the stale-tail fault under bucket=13 leaves seams at boundaries 1 and 2 (0.400 s and 0.800 s on this
// prompt, test/cli/compare-stale-tail.test.ts); the same stream without the fault has none.
const SHOTS = 'test-results';
const TEXT = 'Hello world, this is a parity test.';
const problems: string[] = [];
let studio: StudioSession;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  studio = await startStudio(mkdtempSync(join(tmpdir(), 'parity-seams-')), problems, { width: 1440, height: 900 });
  page = studio.page;
}, 120_000);
afterAll(() => stopStudio(studio?.browser, studio?.served));

async function synthesize(profileB: string): Promise<void> {
  const before = await page.locator('[data-history-id]').count();
  await page.getByLabel('Prompt').fill(TEXT);
  await page.getByLabel('Profile A').fill('graph,vocoder=stream');
  await page.getByLabel('Profile B').fill(profileB);
  await page.getByRole('button', { name: 'Synthesize A/B' }).click();
  await expect.poll(() => page.locator('[data-history-id]').count(), { timeout: 60_000 }).toBe(before + 1);
  await page.locator('li.current[data-history-id]').waitFor({ timeout: 10_000 });
  await page.getByTestId('waveform-ab').waitFor({ timeout: 10_000 });
}

/** The seams the comparison on screen reports (report.json `seams`), as the host sent them. */
const reportedSeams = () =>
  page.evaluate('(window.__studio.store.getState().comparison.report.seams?.seams ?? []).map((s) => ({ boundary: s.boundary, timeSec: Number(s.timeSec) }))') as Promise<
    { boundary: number; timeSec: number }[]
  >;

const geometry = (t: number) => overlayGeometry(page, t);
const tealCount = (box?: { x: number; y: number; w: number; h: number }) => overlayTealCount(page, box);

describe('studio: seams at chunk boundaries on the waveform lanes', () => {
  it('marks each seam of a stale-tail stream at its reported time, and hovering it names it', async () => {
    await synthesize('graph,vocoder=stream,bucket=13,fault=stale-tail');
    const seams = await reportedSeams();
    expect(seams.map((s) => s.boundary)).toEqual([1, 2]);
    for (const seam of seams) {
      const g = await geometry(seam.timeSec);
      // The triangle's top row is 2·SEAM_HALF_WIDTH px wide at the seam's x; 15 px either side there is no seam colour.
      expect(await tealCount({ x: g.x - 1, y: Math.round(g.abTop) + 1, w: 3, h: 2 }), `seam ${seam.boundary} at ${seam.timeSec} s`).toBeGreaterThan(0);
      expect(await tealCount({ x: g.x - 15 - SEAM_HALF_WIDTH, y: Math.round(g.abTop), w: 10, h: 2 * SEAM_HALF_WIDTH })).toBe(0);
      await page.mouse.move(g.left + g.x, g.top + g.abTop + 30);
      await expect.poll(async () => page.getByTestId('hover-readout').textContent()).toContain(`seam at chunk boundary ${seam.boundary}, ${seam.timeSec.toFixed(3)} s`);
    }
    // Half-way between the seams the readout names none.
    const between = await geometry((seams[0].timeSec + seams[1].timeSec) / 2);
    await page.mouse.move(between.left + between.x, between.top + between.abTop + 30);
    await expect.poll(async () => page.getByTestId('hover-readout').textContent()).not.toContain('seam at');
    await page.screenshot({ path: `${SHOTS}/ui-seams-1440.png` });
  }, 90_000);

  it('a clean stream (the same bucket padding, no fault) reports no seam and the lanes show none', async () => {
    await synthesize('graph,vocoder=stream,bucket=13');
    expect(await reportedSeams()).toEqual([]);
    expect(await tealCount()).toBe(0);
    expect(problems).toEqual([]);
  }, 90_000);
});
