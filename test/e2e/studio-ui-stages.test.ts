import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';

// The case in the studio, from the real model code: Qwen3-TTS (tiny, random weights) eager vs its
// position-off-by-one code predictor, written by the documented example (docs/real-models-qwen3-tts.md) in the
// project's .venv. The verdict says step 1, code predictor; the |Δ| lane and the step chart must draw it there,
// with the tolerance on their scales.
const SHOTS = 'test-results';
const PYTHON = resolve('.venv/bin/python');

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'parity-ui-stages-'));
const traces = join(dir, 'qwen');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: npm test builds it (scripts/python-env.js); this test needs the Qwen3-TTS example's traces`);
  execFileSync(PYTHON, ['-m', 'tts_parity.examples.qwen_tts_profiles', traces], { cwd: 'python', stdio: 'pipe', env: { ...process.env, HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1' }, timeout: 180_000 });
  ({ served, browser, page } = await startStudio(join(dir, 'data'), problems, { width: 1440, height: 900 }));
}, 240_000);
afterAll(async () => {
  await stopStudio(browser, served);
  rmSync(dir, { recursive: true, force: true });
});

/** RGBA of a lane canvas at CSS pixel (x, y). */
function lanePixel(testId: string, x: number, y: number): Promise<number[]> {
  return page.evaluate(`(() => {
    const c = document.querySelector('[data-testid="${testId}"]');
    const r = c.width / c.clientWidth;
    return Array.from(c.getContext('2d').getImageData(Math.round(${x} * r), Math.round(${y} * r), 1, 1).data);
  })()`) as Promise<number[]>;
}

const isRed = ([r, g, b, a]: number[]) => a > 200 && r > 150 && g < 90 && b < 110;
const isLight = ([r, g, b, a]: number[]) => a > 150 && r > 200 && g > 200 && b > 200;

describe('studio UI in Chromium: every stage in the per-step views', () => {
  it('a code-predictor divergence at step 1 (Qwen3-TTS position-off-by-one) has a bar and a point at step 1, tolerance lines in range', async () => {
    const files = ['eager.jsonl', 'position-off-by-one.jsonl', 'eager.wav', 'position-off-by-one.wav'].map((f) => join(traces, f));
    await page.getByLabel('Open WAV or trace files').setInputFiles(files);
    await page.locator('li.current', { hasText: 'eager.jsonl vs position-off-by-one.jsonl' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 1 \(code-predictor\)/);

    // The lane: a row per stage, named, the code predictor's marked as the diverged one.
    const axis = page.getByTestId('stage-axis').locator('span');
    expect(await axis.allTextContents()).toEqual(['talker', 'code pred.', 'vocoder']);
    expect(await page.getByTestId('stage-axis').locator('span.marked').allTextContents()).toEqual(['code pred.']);
    const lane = (await page.getByTestId('step-lane').boundingBox())!;
    const row = lane.height / 3;
    // 7 steps over the whole take (7 frames): step 1 is the first seventh. Its code-predictor row holds a red
    // bar (|Δ| above the 1e-3 tolerance) with the tolerance's light halo crossing it; the talker, equal there,
    // has only the grey tick on its floor and nothing above it.
    const x = lane.width / 14;
    expect(isRed(await lanePixel('step-lane', x, 2 * row - 3)), 'code-predictor bar at step 1').toBe(true);
    let halo = false;
    for (let y = row + 3; y < 2 * row - 1 && !halo; y++) halo = isLight(await lanePixel('step-lane', x, y));
    expect(halo, 'tolerance line across the code-predictor row').toBe(true);
    expect((await lanePixel('step-lane', x, row - 1))[3], 'talker zero tick at step 1').toBeGreaterThan(200);
    expect(isRed(await lanePixel('step-lane', x, row / 2)), 'no talker bar at step 1').toBe(false);
    await page.screenshot({ path: `${SHOTS}/ui-stages-lanes-1440.png` });

    // The step chart: every step, the axis ending at the last; each tolerance inside the plot; exact values at step 1.
    await page.getByRole('tab', { name: 'Step trace' }).click();
    const chart = page.locator('[data-tolerances]');
    await chart.waitFor();
    await chart.scrollIntoViewIfNeeded();
    expect(await chart.getAttribute('data-x-range')).toBe('0.5 7.5');
    const tolerances = JSON.parse((await chart.getAttribute('data-tolerances'))!) as [string, number, number, number][];
    expect(tolerances.map((t) => t[0])).toEqual(['talker', 'code-predictor', 'vocoder']);
    for (const [stage, value, y, height] of tolerances) {
      expect(y, `${stage} tolerance ${value} inside the plot`).toBeGreaterThan(0);
      expect(y, `${stage} tolerance ${value} inside the plot`).toBeLessThan(height);
    }
    const over = (await page.locator('[data-testid="step-chart"] .u-over').boundingBox())!;
    // Step 1's point is half a step in from the left end of 0.5…7.5.
    await page.mouse.move(over.x + over.width / 14, over.y + over.height / 2);
    const legend = page.locator('[data-testid="step-chart"] .u-legend');
    await expect.poll(() => legend.innerText()).toMatch(/step:?\s*1(?!\d)/);
    const text = await legend.innerText();
    expect(text).toMatch(/talker \|Δ\|:?\s*0 \(equal\)/);
    // The code predictor's worst codebook at step 1, with four significant digits (never a rounded 0).
    // The verdict's own codebook (2) is named beside the worst when they differ.
    const worst = /code predictor \|Δ\| \(worst codebook\):?\s*(\d\.\d{3,}(e-\d+)?) \(worst: codebook \d+; the verdict's codebook 2: \d\.\d{3,}(e-\d+)?\)/.exec(text);
    expect(worst, text).not.toBeNull();
    expect(Number(worst![1])).toBeGreaterThan(1e-3);
    await page.screenshot({ path: `${SHOTS}/ui-stages-chart-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/ui-stages-chart-1024.png` });
    expect(problems).toEqual([]);
  }, 90_000);

  it('the view explains itself: the header names the imported traces, a colour key, stacked rows named, spectrograms keep transport and tabs in the window, the form kept across a reload', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // Not "Demo bundle · 8 codebooks × 128": what is on screen is a 16-codebook Qwen3-TTS trace pair.
    expect(await page.getByTestId('shown-name').textContent()).toBe('Imported traces');
    expect(await page.getByTestId('shown-source').innerText()).toMatch(/qwen-tts 0\.1\.1 Qwen3-TTS[\s\S]*16 codebooks[\s\S]*12\.5 frames\/s[\s\S]*24000 Hz/);
    expect(await page.getByTestId('colour-key').innerText()).toMatch(/^A: eager\.jsonl\s+B: position-off-by-one\.jsonl\s+A − B/);
    await page.getByRole('button', { name: 'Stack A/B' }).click();
    expect(await page.getByTestId('stack-axis').locator('span').allTextContents()).toEqual(['A', 'B']);
    await page.getByRole('button', { name: 'Spectrogram' }).click();
    await page.getByTestId('specA').waitFor({ timeout: 30_000 });
    for (const size of [{ width: 1440, height: 900 }, { width: 1024, height: 700 }]) {
      await page.setViewportSize(size);
      await page.evaluate("document.getElementById('results').scrollTop = 0");
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      for (const [name, box] of [['transport', await page.getByTestId('transport').boundingBox()], ['tabs', await page.getByRole('tablist', { name: 'Details' }).boundingBox()]] as const) {
        expect(box!.y + box!.height, `${name} at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
      }
      await page.screenshot({ path: `${SHOTS}/ui-stages-spectrograms-${size.width}.png` });
    }
    // The lanes scroll inside their box: the codes lane is still there, below the spectrograms.
    expect(await page.getByTestId('codes-lane').count()).toBe(1);
    await page.getByLabel('Profile B', { exact: true }).fill('graph,fault=stale-feedback@2');
    await page.getByLabel('Seed').fill('7');
    await page.reload();
    await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
    expect(await page.getByLabel('Profile B', { exact: true }).inputValue()).toBe('graph,fault=stale-feedback@2');
    expect(await page.getByLabel('Seed').inputValue()).toBe('7');
    expect(problems).toEqual([]);
  }, 60_000);
});
