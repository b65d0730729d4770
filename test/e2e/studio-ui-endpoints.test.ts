import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';
import { startStandIn, type StandIn } from '../helpers/speech-stand-in.js';

// The studio's A/B form with two endpoint sides, in Chromium against `parity serve`, the sides served by
// the stand-in speech server (test/helpers/speech-stand-in.ts; `/quiet` is the same rendering at 0.9 gain).
const SHOTS = 'test-results';
let served: Served;
let browser: Browser;
let page: Page;
let server: StandIn;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-endpoints-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startStandIn({ firstChunkDelayMs: 50 });
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(async () => {
  await stopStudio(browser, served);
  await server.close();
});

async function sides(a: string, b: string): Promise<void> {
  await page.getByLabel('Profile A').fill(a);
  await page.getByLabel('Profile B').fill(b);
}

describe('studio UI: two endpoints in the A/B form', () => {
  it('compares two endpoints, shows them as the WAV pair they are, and offers them again', async () => {
    const a = `endpoint=${server.url},model=stand-in-tts,stream=sse`;
    const b = `endpoint=${server.url}/quiet,model=stand-in-tts`;
    await sides(a, b);
    expect(await page.locator('#field-profileA-issue').count()).toBe(0);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    await page.locator('li.current', { hasText: `${server.url}/v1/audio/speech vs ${server.url}/quiet/v1/audio/speech` }).waitFor({ timeout: 30_000 });
    const sent = server.requests.slice(-2).map((r) => r.body);
    expect(sent[0].input).toBe(sent[1].input);
    expect(sent[0]).toMatchObject({ stream: true, stream_format: 'sse' });
    expect(await page.getByTestId('sides').innerText()).toMatch(/^Endpoints\s+A: endpoint=http:\/\/127\.0\.0\.1:\d+\/v1\/audio\/speech,model=stand-in-tts,stream=sse\s+B: endpoint=.*\/quiet\/v1\/audio\/speech,model=stand-in-tts\s+first audio A \d+ ms, B \d+ ms · compared as a WAV pair \(no traces: A has no traces=DIR; B has no traces=DIR\)/);
    expect(await page.getByTestId('shown-name').textContent()).toBe("Two endpoints' audio");
    await page.getByRole('tab', { name: 'Metrics' }).click();
    expect(await page.getByRole('row', { name: /Gain/ }).first().textContent()).toContain('0.92 dB');
    for (const [w, h] of [[1440, 900], [1024, 700]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${SHOTS}/ui-endpoints-${w}.png` });
    }
    // Saved once the comparison ran: offered in the fields' suggestions.
    await page.getByLabel('Profile A').fill('endpoint=');
    await expect.poll(() => page.getByTestId('field-profileA-keys').locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value))).toContain(a);
    expect(problems).toEqual([]);
  }, 90_000);

  it('an endpoint beside an engine profile and a bad endpoint are refused in the field or by the host, in words', async () => {
    await sides(`endpoint=${server.url},vocoder=stream`, 'eager');
    expect(await page.locator('#field-profileA-issue').textContent()).toContain('unknown key "vocoder" for an endpoint');
    await sides(`endpoint=${server.url}`, 'eager');
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    const notice = page.getByTestId('notice').last();
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toContain('profile A is an endpoint and profile B an engine profile');
  }, 60_000);

  it('a server error is one notice naming the endpoint; Cancel stops a request in flight', async () => {
    await sides(`endpoint=${server.url}/http500`, `endpoint=${server.url}`);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    const notice = page.getByTestId('notice').last();
    await expect.poll(async () => (await notice.textContent()) ?? '', { timeout: 20_000 }).toContain('/http500/v1/audio/speech: HTTP 500 Internal Server Error: EngineCore encountered an issue');
    await page.screenshot({ path: `${SHOTS}/ui-endpoints-error-1024.png` });
    const before = server.requests.length;
    await sides(`endpoint=${server.url}/slow`, `endpoint=${server.url}`);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    await expect.poll(() => server.requests.length, { timeout: 20_000 }).toBeGreaterThan(before);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('job-status').filter({ hasText: 'Cancelled.' }).waitFor({ timeout: 20_000 });
    await expect.poll(() => server.closedEarly.includes('/slow'), { timeout: 10_000 }).toBe(true);
  }, 60_000);
});
