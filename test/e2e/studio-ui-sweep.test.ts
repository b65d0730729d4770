import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from '../cli/run-parity.js';
import type { Served } from './serve-process.js';
import { scatterPoint, startStudio, stopStudio } from './studio-ui-helpers.js';

// The studio's sweep view in Chromium (browser mode): open the sweep.json of a real sweep and merge,
// sort the case table, and open a case, which synthesizes it again as an ordinary comparison.
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'parity-ui-sweep-'));
const merged = join(dir, 'merged');
const mergedWithFixture = join(dir, 'merged-fixture');

beforeAll(async () => {
  // stale-feedback@20 acts on the long prompt only (the short one ends before step 20): one identical, one diverged.
  const corpus = join(dir, 'corpus.jsonl');
  writeFileSync(corpus, ['{"id":"short","text":"Hi."}', '{"id":"long","text":"This is a rather longer prompt that should run many frames."}'].join('\n'));
  const sweep = await runParity(['sweep', '--corpus', corpus, '--a', 'graph', '--b', 'graph,fault=stale-feedback@20', '--out', join(dir, 'runs')], { timeoutMs: 60_000 });
  expect(sweep.status, sweep.stderr).toBe(0);
  expect((await runParity(['sweep', 'merge', join(dir, 'runs'), '--out', merged, '--worst', '0'])).status).toBe(0);
  // The same shards merged with the worst case (long@0, the diverged one) re-run as a fixture.
  expect((await runParity(['sweep', 'merge', join(dir, 'runs'), '--out', mergedWithFixture, '--worst', '1'], { timeoutMs: 60_000 })).status).toBe(0);
  mkdirSync('test-results', { recursive: true });
  ({ served, browser, page } = await startStudio(join(dir, 'data'), problems));
}, 180_000);
afterAll(async () => {
  await stopStudio(browser, served);
  rmSync(dir, { recursive: true, force: true });
});

/** The dashboard's counts in one line, as sweep.md words them. */
async function counts(): Promise<string> {
  const n = (v: string) => page.getByTestId(`sweep-count-${v}`).textContent();
  const missing = (await page.getByTestId('sweep-counts').locator('li').last().textContent())!.trim();
  return `${await n('identical')} identical, ${await n('within-tolerance')} within tolerance, ${await n('diverged')} diverged, ${await n('error')} errors, ${missing}`;
}

describe('studio UI in Chromium: sweep view', () => {
  it('shows the counts, the step histogram, correlation vs ΔLU and a sortable case table; a case opens as a comparison', async () => {
    await page.getByLabel('Open sweep.json…').setInputFiles(join(merged, 'sweep.json'));
    await page.getByTestId('sweep-summary').waitFor({ timeout: 10_000 });
    expect(await counts()).toBe('1 identical, 0 within tolerance, 1 diverged, 0 errors, 0 missing');
    expect(await page.getByTestId('sweep-bin').allTextContents()).toEqual(['step 20: 1 case']);
    // One dot per case with a finite correlation and ΔLU: "Hi." is too short for BS.1770's gating on
    // either side, so its ΔLU is NaN and it is counted as not shown.
    expect(await page.getByTestId('sweep-dots').getAttribute('data-dots')).toBe('1');
    expect(await page.locator('.sweep-charts figcaption').nth(1).textContent()).toContain('(1 case not plotted: no correlation or no ΔLU)');
    const firstCell = () => page.getByTestId('sweep-case').first().locator('td').first().textContent();
    expect(await firstCell()).toBe('short@0');
    expect(await page.getByTestId('sweep-case').first().textContent()).toContain('not measured'); // its NaN ΔLU, in words
    // The histogram's bar is a button (here by keyboard): only its step in the table, named in the filter row, cleared again.
    await page.getByRole('button', { name: /^step 20: 1 case/ }).press('Enter');
    await expect.poll(() => page.getByTestId('sweep-shown').textContent()).toBe('1 of 2 cases');
    expect(await firstCell()).toBe('long@0');
    expect(await page.getByTestId('sweep-step-filter').textContent()).toContain('First divergent step 20');
    expect(await page.getByRole('button', { name: /^step 20: 1 case/ }).getAttribute('aria-pressed')).toBe('true');
    await page.screenshot({ path: 'test-results/ui-sweep-step-filter-1280.png' });
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.getByTestId('sweep-shown').textContent()).toBe('2 of 2 cases');
    expect(await page.getByTestId('sweep-step-filter').count()).toBe(0);
    // Correlation ascending: the diverged case (lower correlation) first.
    await page.getByRole('button', { name: /^Corr\./ }).click();
    expect(await firstCell()).toBe('long@0');
    // Its dot, found where its correlation and ΔLU put it on the canvas: a hover card, and a click opens it.
    const cells = await page.getByTestId('sweep-case').first().locator('td').allTextContents();
    const at = await scatterPoint(page, Number(cells[5]), Number(cells[6]));
    await page.mouse.move(at.x, at.y);
    expect(await page.getByTestId('sweep-card').locator('strong').textContent()).toBe('long@0');
    await page.mouse.move(at.x + 40, at.y);
    expect(await page.getByTestId('sweep-card').count()).toBe(0);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('verdict').textContent(), { timeout: 30_000 }).toMatch(/^Diverged/);
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 20 \(talker-logits\)/);
    // The form took the case's prompt and profiles, so what ran is on screen.
    expect(await page.getByLabel('Profile B', { exact: true }).inputValue()).toBe('graph,fault=stale-feedback@20');
    await page.screenshot({ path: 'test-results/ui-sweep-1280.png' });
    expect(problems).toEqual([]);
  }, 60_000);

  it('opens a worst case from its fixture (an import of its traces and WAVs, nothing synthesized) when the merged folder is opened', async () => {
    await page.getByLabel('Open a sweep folder…').setInputFiles(mergedWithFixture);
    await expect.poll(counts, { timeout: 10_000 }).toBe('1 identical, 0 within tolerance, 1 diverged, 0 errors, 0 missing');
    const before = await page.getByTestId('history-list').locator('li').count();
    await page.getByRole('button', { name: 'Open case long@0' }).click();
    await expect.poll(() => page.getByTestId('history-list').locator('li').count(), { timeout: 30_000 }).toBe(before + 1);
    // The new history entry is the import of the fixture's two traces, named by its folder.
    expect(await page.getByTestId('history-list').textContent()).toContain('worst-01-long_0-a.jsonl vs worst-01-long_0-b.jsonl');
    await expect.poll(() => page.getByTestId('verdict').textContent(), { timeout: 30_000 }).toMatch(/^Diverged/);
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 20 \(talker-logits\)/);
    expect(problems).toEqual([]);
  }, 60_000);
});
