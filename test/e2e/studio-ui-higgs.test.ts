import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlayGeometry, overlayTealCount, startStudio, stopStudio, type StudioSession } from './studio-ui-helpers.js';

// Higgs-Audio-v3 through vLLM-Omni in the studio, from the real run's files (test/fixtures/higgs-omni/README.md):
// whole vs streamed Code2Wav (the same codes; the audio differs only in the streamed side's first chunk, frames
// 1-3, up to the seam at frame 4), and the planted stale audio feedback (step 2, talker logits).
const SHOTS = 'test-results';
const FIXTURE = resolve('test/fixtures/higgs-omni');
const problems: string[] = [];
let studio: StudioSession;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  studio = await startStudio(mkdtempSync(join(tmpdir(), 'parity-ui-higgs-')), problems, { width: 1440, height: 900 });
  page = studio.page;
}, 120_000);
afterAll(() => stopStudio(studio?.browser, studio?.served));

async function importPair(files: string[], label: string): Promise<void> {
  await page.getByLabel('Open WAV or trace files').setInputFiles(files.map((f) => join(FIXTURE, f)));
  await page.locator('li.current', { hasText: label }).waitFor({ timeout: 30_000 });
}

const geometry = (t: number) => overlayGeometry(page, t);
const tealCount = (box: { x: number; y: number; w: number; h: number }) => overlayTealCount(page, box);

describe('studio UI in Chromium: a Higgs-Audio-v3 trace pair from vLLM-Omni', () => {
  it('whole vs streamed Code2Wav: the header names the engine, 8 codebooks, their delays, rates and chunking; the seam is marked where the difference stops', async () => {
    await importPair(['whole.jsonl', 'streamed.jsonl', 'whole.wav', 'streamed.wav'], 'whole.jsonl vs streamed.jsonl');
    const source = await page.getByTestId('shown-source').innerText();
    expect(source).toMatch(/vllm-omni 0\.30\.0 \/ vllm 0\.30\.0 eager[\s\S]*8 codebooks[\s\S]*codebook delays 0–7[\s\S]*vocoder A whole \/ B 2 chunks[\s\S]*25 frames\/s[\s\S]*24000 Hz/);
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 1 \(vocoder\)/);
    expect(await page.getByTestId('stage-axis').locator('span.marked').allTextContents()).toEqual(['vocoder']);
    const chunks = await page.getByTestId('forensics-vocoder-chunks').innerText();
    expect(chunks).toMatch(/^Vocoder chunks\s+audio differs only/);
    expect(chunks).toContain("audio differs only in chunk 1 of 2 (frames 1-3), up to the seam at frame 4 (B's chunks: seam at frame 4); equal in chunk 2 (frames 4-11)");
    expect(chunks).toContain('seam at frame 4 (sample 2880, t = 0.120 s; B)');

    // The seam: frame 4 starts at 3 × 960 samples = 0.120 s; a tick there, none 15 px before it.
    const g = await geometry(0.12);
    expect(await tealCount({ x: g.x - 1, y: Math.round(g.abTop) + 1, w: 3, h: 2 }), 'seam tick at 0.120 s').toBeGreaterThan(0);
    expect(await tealCount({ x: g.x - 25, y: Math.round(g.abTop), w: 10, h: 8 })).toBe(0);
    await page.mouse.move(g.left + g.x, g.top + g.abTop + 30);
    await expect.poll(async () => page.getByTestId('hover-readout').textContent()).toContain('seam 1 (vocoder chunk 2 starts at frame 4), 0.120 s; audio differs before');
    await page.screenshot({ path: `${SHOTS}/ui-higgs-streamed-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    // A narrow window keeps the delays and the chunking whole in the header line (the rates go to its title).
    const header = (await page.getByTestId('shown-source').boundingBox())!;
    for (const fact of ['codebook delays 0–7', 'vocoder A whole / B 2 chunks']) {
      const box = (await page.getByTestId('shown-source').getByText(fact, { exact: true }).boundingBox())!;
      expect(box.x + box.width, `"${fact}" inside the header at 1024 px`).toBeLessThanOrEqual(header.x + header.width);
    }
    expect(await page.getByTestId('shown-source').getAttribute('title')).toContain('25 frames/s · 24000 Hz');
    await page.screenshot({ path: `${SHOTS}/ui-higgs-streamed-1024.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(problems).toEqual([]);
  }, 90_000);

  it('the planted stale feedback: step 2 in the talker lane, codebook 0, no seams (no audio)', async () => {
    await importPair(['clean.jsonl', 'stale.jsonl'], 'clean.jsonl vs stale.jsonl');
    const summary = await page.getByTestId('divergence-summary').textContent();
    expect(summary).toMatch(/^First divergence: step 2 \(talker-logits/);
    expect(await page.getByText(/^Codes first differ: step 2, codebook 0 /).count()).toBe(1);
    expect(await page.getByTestId('stage-axis').locator('span.marked').allTextContents()).toEqual(['talker']);
    expect(await page.getByTestId('shown-source').innerText()).toMatch(/higgs talker[\s\S]*8 codebooks[\s\S]*codebook delays 0–7/);
    expect(await page.getByTestId('forensics-vocoder-chunks').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/ui-higgs-stale-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    // A short window lowers the lanes to keep the waveforms in view; with no audio the three stage rows (talker, code
    // predictor, and the vocoder's saying there is no audio) keep 26 px each.
    await expect.poll(async () => (await page.getByTestId('step-lane').boundingBox())?.height).toBe(3 * 26);
    await page.screenshot({ path: `${SHOTS}/ui-higgs-stale-1024.png` });
    expect(problems).toEqual([]);
  }, 90_000);
});
