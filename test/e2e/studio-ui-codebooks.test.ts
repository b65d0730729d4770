import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';

// Issue 40: a 16-codebook trace pair without WAVs (hand-written, docs/trace-format.md). At step 1 codebook 2's
// logit mean is 0.002 apart (over the 1e-3 tolerance, so the verdict names codebook 2) and codebook 8's is 0.5
// apart (the worst, which the per-step views plot). Without spectrograms, at 1024×700, its lanes (a 16-row codes
// lane) must still leave the transport and tabs in the window; the vocoder row says there is no audio; the
// chart's legend and the lane's readout name the verdict's codebook beside the worst.
const SHOTS = 'test-results';
const Q = 16;
const STEPS = 40;
const dir = mkdtempSync(join(tmpdir(), 'parity-ui-codebooks-'));
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];

const stats = (mean: number) => ({ mean, std: 1, min: -4, max: 6, argmax: 3, top5: [{ id: 3, logit: 6 }] });
function trace(name: string, apart: boolean): string {
  const lines = [JSON.stringify({ schema: 'tts-parity-trace/1', engine: 'hand', profile: name, q: Q, frameRate: 12.5, sampleRate: 24000 })];
  for (let step = 1; step <= STEPS; step++) {
    const cp = Array.from({ length: Q - 1 }, (_, k) => stats(0.1 * k + (apart && step === 1 ? (k === 1 ? 0.002 : k === 7 ? 0.5 : 0) : 0)));
    lines.push(JSON.stringify({ step, logits: stats(0.25), codes: Array.from({ length: Q }, (_, k) => (step * 7 + k) % 64), codePredictorLogits: cp }));
  }
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** 3.2 s (40 frames at 12.5/s) of a tone, as the trace of the same name's audio. */
function wav(name: string, hz: number): string {
  const path = join(dir, `${name}.wav`);
  writeFileSync(path, encodeWav([Float32Array.from({ length: 76_800 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * hz * i) / 24000))], 24000, 'float32'));
  return path;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ served, browser, page } = await startStudio(join(dir, 'data'), problems, { width: 1024, height: 700 }));
}, 120_000);
afterAll(async () => {
  await stopStudio(browser, served);
  rmSync(dir, { recursive: true, force: true });
});

describe('studio UI in Chromium: a 16-codebook trace pair without audio', () => {
  it('names the vocoder row (no audio) and the verdict codebook beside the worst', async () => {
    await page.getByLabel('Open WAV or trace files').setInputFiles([trace('ref', false), trace('port', true)]);
    await page.locator('li.current', { hasText: 'ref.jsonl vs port.jsonl' }).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 1 \(code-predictor\)/);
    expect(await page.getByTestId('stage-axis').locator('span').allTextContents()).toEqual(['talker', 'code pred.', 'vocoder']);
    expect(await page.getByTestId('step-lane').getAttribute('aria-label')).toMatch(/top to bottom: talker, code predictor, vocoder/);

    await page.screenshot({ path: `${SHOTS}/ui-codebooks-no-audio-1024.png` });
    // The lane's readout at step 1: the worst codebook, and the verdict's own with its |Δ|.
    const lane = (await page.getByTestId('step-lane').boundingBox())!;
    await page.mouse.move(lane.x + lane.width / (2 * STEPS), lane.y + lane.height / 2);
    const readout = page.getByTestId('hover-readout');
    await expect.poll(() => readout.textContent()).toMatch(/code predictor \|Δ\| 0\.5000 \(worst: codebook 8; the verdict's codebook 2: 0\.002000\)/);

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByRole('tab', { name: 'Step trace' }).click();
    const over = page.locator('[data-testid="step-chart"] .u-over');
    await over.scrollIntoViewIfNeeded();
    const plot = (await over.boundingBox())!;
    await page.mouse.move(plot.x + plot.width / (2 * STEPS), plot.y + plot.height / 2);
    const legend = page.locator('[data-testid="step-chart"] .u-legend');
    await expect.poll(() => legend.innerText()).toMatch(/the verdict's codebook 2: 0\.002000/);
    expect(await legend.innerText()).toMatch(/vocoder \|Δ\|: no audio in this pair/);
    await page.getByTestId('step-chart').screenshot({ path: `${SHOTS}/ui-codebooks-chart-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/ui-codebooks-chart-1024.png` });
    expect(problems).toEqual([]);
  }, 90_000);

  it('with its WAVs and taller codes, without spectrograms: the lanes scroll inside, transport and tabs stay in the window', async () => {
    await page.getByLabel('Open WAV or trace files').setInputFiles([trace('ref', false), trace('port', true), wav('ref', 220), wav('port', 221)]);
    await page.getByTestId('transport').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Taller codes' }).click();
    for (const size of [{ width: 1024, height: 700 }, { width: 1440, height: 900 }]) {
      await page.setViewportSize(size);
      await page.evaluate("document.getElementById('results').scrollTop = 0");
      await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
      for (const [name, box] of [['transport', await page.getByTestId('transport').boundingBox()], ['tabs', await page.getByRole('tablist', { name: 'Details' }).boundingBox()]] as const) {
        expect(box!.y + box!.height, `${name} at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
      }
      await page.screenshot({ path: `${SHOTS}/ui-codebooks-lanes-${size.width}.png` });
    }
    expect(await page.getByTestId('stage-axis').locator('span').allTextContents()).toEqual(['talker', 'code pred.', 'vocoder']);
    expect(problems).toEqual([]);
  }, 90_000);
});
