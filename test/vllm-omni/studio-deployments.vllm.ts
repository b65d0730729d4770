import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Served } from '../e2e/serve-process.js';
import { startStudio, stopStudio } from '../e2e/studio-ui-helpers.js';
import { runParity } from '../cli/run-parity.js';

// The studio's A/B form (browser mode: `parity serve`, Chromium) with the two real deployments of servers-setup.ts
// as its sides: A eager (whole Code2Wav), B --async-chunk (streamed Code2Wav), each with its recorder's folder.
const { a, b, model } = inject('vllm');
const SHOTS = 'test-results';
const TEXT = 'Hello there, parity.';
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-vllm-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ served, browser, page } = await startStudio(dataDir, problems, { width: 1440, height: 900 }));
}, 120_000);
afterAll(async () => {
  await stopStudio(browser, served);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('studio UI: two vLLM-Omni deployments in the A/B form', () => {
  it("compares them over both servers' traces, shows where they part, and exports a fixture that re-runs without the servers", async () => {
    await page.locator('#field-text').fill(TEXT);
    await page.getByLabel('Profile A').fill(`endpoint=${a.url},traces=${a.traces}`);
    await page.getByLabel('Profile B').fill(`endpoint=${b.url},stream=audio,traces=${b.traces}`);
    expect(await page.locator('#field-profileA-issue').count()).toBe(0);
    expect(await page.locator('#field-profileB-issue').count()).toBe(0);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    await page.locator('li.current', { hasText: `${a.url}/v1/audio/speech vs ${b.url}/v1/audio/speech` }).waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('shown-name').textContent()).toBe("Two endpoints' traces");
    const sides = await page.getByTestId('sides').innerText();
    expect(sides).toMatch(/first audio A \d+ ms, B \d+ ms · compared as a trace pair/);
    // As the CLI measured the same pair (compare-deployments.vllm.ts): codes equal, parted in the vocoder.
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^Diverged: /);
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step \d+ \(vocoder\) — all codes equal/);
    for (const [w, h] of [[1440, 900], [1024, 700]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${SHOTS}/ui-vllm-deployments-${w}.png` });
    }
    await page.getByRole('button', { name: 'Export fixture' }).click();
    const result = page.getByTestId('export-result');
    await result.waitFor({ timeout: 60_000 });
    const dir = (await result.locator('code').textContent())!;
    for (const f of ['a.jsonl', 'b.jsonl', 'a.wav', 'b.wav', 'report.json', 'report.md', 'report.html']) expect(existsSync(join(dir, f)), f).toBe(true);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.endpoints.a.response.serverModel).toBe(model);
    expect(report.endpoints.comparedAs).toBe('traces');
    const gate = await runParity(['gate', dir], { timeoutMs: 120_000 });
    expect(gate.stdout).toContain(`recorded diverged at step ${report.divergence.firstStep} (vocoder)`);
    expect(gate.status).toBe(0);
    expect(problems).toEqual([]);
  }, 240_000);
});
