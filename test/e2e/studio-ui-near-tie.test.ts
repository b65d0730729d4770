import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';

// The studio's verdict bar on a near-tie flip (docs/forensics.md "Near-tie flips"), from two imported
// hand-written traces: at step 2 A picks 81 (2.5 over 65 at 2.4375), B picks 65 (2.5 over 81 at 2.46875).
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-near-tie-'));

beforeAll(async () => {
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(() => stopStudio(browser, served));

const HEADER = '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000}';
const top = (pairs: [number, number][]) => pairs.map(([id, logit]) => `{"id":${id},"logit":${logit}}`).join(',');
const step = (n: number, pairs: [number, number][], code: number) =>
  `{"step":${n},"logits":{"mean":0,"std":1,"min":-3,"max":${pairs[0][1]},"argmax":${pairs[0][0]},"top5":[${top(pairs)}]},"codes":[${code},1]}`;
const PLAIN: [number, number][] = [[7, 3], [8, 2], [9, 1.5], [10, 1.25], [11, 1]];
const trace = (second: [number, number][], code: number) => [HEADER, step(1, PLAIN, 7), step(2, second, code)].join('\n') + '\n';

describe('studio UI: near-tie flips and teacher forcing', () => {
  it('the verdict bar says "diverged at a near-tie (numerically equivalent)" and names the flip with both gaps', async () => {
    const dir = join(dataDir, 'traces');
    mkdirSync(dir, { recursive: true });
    const a = join(dir, 'tie-a.jsonl');
    const b = join(dir, 'tie-b.jsonl');
    writeFileSync(a, trace([[81, 2.5], [65, 2.4375], [3, 2], [4, 1.75], [5, 1.5]], 81));
    writeFileSync(b, trace([[65, 2.5], [81, 2.46875], [3, 2], [4, 1.75], [5, 1.5]], 65));
    await page.getByLabel('Open WAV or trace files').setInputFiles([a, b]);
    await page.locator('li.current', { hasText: 'tie-a.jsonl vs tie-b.jsonl' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^Diverged at a near-tie \(numerically equivalent\)/);
    expect(await page.getByTestId('flip-summary').textContent()).toBe('Codes first differ: step 2, codebook 0 (A 81, B 65): near-tie flip; top-1 − top-2 gap A 0.063, B 0.031');
    expect(problems).toEqual([]);
  }, 60_000);

  it('synthesizes graph vs graph,precision=fp16 teacher-forced: the drift and its near-tie would-flips are listed', async () => {
    const before = await page.locator('[data-history-id]').count();
    await page.getByLabel('Prompt').fill('Hello world, this is a parity test.');
    await page.getByLabel('Profile A').fill('graph');
    await page.getByLabel('Profile B').fill('graph,precision=fp16');
    await page.getByLabel("Teacher-force B on A's codes").check();
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    await expect.poll(() => page.locator('[data-history-id]').count(), { timeout: 60_000 }).toBe(before + 1);
    await page.getByTestId('forensics-teacher-forcing').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^Diverged at a near-tie \(numerically equivalent\)/);
    const text = (await page.getByTestId('forensics-teacher-forcing').textContent())!;
    // The same run as docs/forensics.md "Teacher forcing": two near-tie would-flips, none real.
    expect(text).toContain("B was fed A's codes at every step (teacher forcing)");
    await page.screenshot({ path: 'test-results/ui-teacher-forcing-1280.png' });
    expect(text).toMatch(/Would-flip steps \(B's own pick ≠ A's code\): 2 near-tie, 0 real, 0 unknown/);
    expect(problems).toEqual([]);
  }, 90_000);
});
