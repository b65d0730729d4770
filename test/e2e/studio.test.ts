import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildOnce } from './build-once.js';
import { startServe, type Served } from './serve-process.js';

// Browser mode end to end: the built renderer in Debian's Chromium against a real `parity serve`.
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
// 128 bytes: the demo bundle's text limit, long enough for its 115-frame cap.
const LONG = 'A long prompt so that the demo talker runs to its frame limit. '.repeat(3).slice(0, 128);

let served: Served;
let browser: Browser;

beforeAll(async () => {
  buildOnce();
  mkdirSync('test-results', { recursive: true });
  served = await startServe();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
});
afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

async function openStudio(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
  await page.goto(served.url);
  await page.getByTestId('bundle-name').waitFor({ timeout: 30_000 });
  return page;
}

describe('studio in Chromium (browser mode)', () => {
  it('synthesizes eager vs graph, shows step progress, then the verdict and metrics', async () => {
    const page = await openStudio();
    expect(page.url()).not.toContain('token='); // removed from the address bar; the cookie keeps the session
    await page.getByLabel('Prompt').fill(LONG);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    await expect.poll(() => page.getByTestId('progress-label').textContent(), { timeout: 20_000 }).toMatch(/Profile [AB]: talker step \d+ of \d+/);
    await page.screenshot({ path: 'test-results/e2e-progress.png' });
    const verdict = page.getByTestId('verdict');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.textContent()).toMatch(/^(Identical|Within tolerance|Diverged)/);
    expect(await page.getByRole('row', { name: /Correlation/ }).textContent()).toMatch(/Correlation \(lag 0\)-?[01]\.\d{6}/);
    await page.screenshot({ path: 'test-results/e2e-verdict.png' });
    await page.close();
  });

  it('cancels a long synthesis', async () => {
    const page = await openStudio();
    await page.getByLabel('Prompt').fill(LONG);
    await page.getByRole('button', { name: 'Synthesize A/B' }).click();
    // At once: both profiles take well under a second here, so a cancel that waits for a progress line first can
    // find the job already done (the button then disabled). The first test checks the progress lines.
    await page.getByRole('button', { name: 'Cancel' }).click({ timeout: 10_000 });
    await expect.poll(() => page.getByTestId('job-status').textContent(), { timeout: 10_000 }).toBe('Cancelled.');
    expect(await page.getByTestId('verdict').count()).toBe(0);
    await page.screenshot({ path: 'test-results/e2e-cancelled.png' });
    await page.close();
  });

  it('a bad profile string: the error once, at the field; Synthesize off with the reason', async () => {
    const page = await openStudio();
    await page.getByLabel('Profile B').fill('graph,vocodr=stream');
    expect(await page.getByLabel('Profile B').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#field-profileB-issue').textContent()).toContain('vocodr');
    const synth = page.getByRole('button', { name: 'Synthesize A/B' });
    expect(await synth.isDisabled()).toBe(true);
    expect(await page.getByTestId('synth-blocked').textContent()).toBe('Fix Profile B to synthesize.');
    // Once on the page: the field's message, no toast, no second copy under the buttons.
    expect(await page.getByText(/"vocodr"/).count()).toBe(1);
    expect(await page.getByTestId('notice').count()).toBe(0);
    await page.screenshot({ path: 'test-results/e2e-bad-profile.png' });
    await page.close();
  });

  it('a bundle error (as the desktop app can meet it): header on one line with an ellipsis, Synthesize off with the reason', async () => {
    const page = await openStudio();
    // serve refuses a bad bundle before listening, so the state is set in the page's store (the same
    // state loadBundle sets when bundleInfo fails), with the message `parity synth` gives for one.
    const message = 'bundle.json: talker eager-fp32 (talker.eager.fp32.onnx) must declare input "inputs_embeds" as float32 [1, ?, 64]; declared: "input_embeds", "attention_mask", "position_ids", "past_key_values.0.key", "past_key_values.0.value"';
    await page.evaluate(`window.__studio.store.setState({ bundle: undefined, bundleError: ${JSON.stringify(message)} })`);
    const header = page.getByTestId('bundle-error');
    expect(await header.getAttribute('title')).toBe(message);
    const box = (await header.boundingBox())!;
    const mode = (await page.locator('.topbar > .muted').boundingBox())!;
    expect(box.height).toBeLessThan(30); // one line
    expect(box.x + box.width).toBeLessThanOrEqual(mode.x); // does not run onto the "browser mode" label
    expect(await page.getByRole('button', { name: 'Synthesize A/B' }).isDisabled()).toBe(true);
    expect(await page.getByTestId('synth-blocked').textContent()).toMatch(/model bundle could not be opened/);
    await page.screenshot({ path: 'test-results/e2e-bundle-error.png' });
    await page.close();
  });

  it('the served studio refuses pages and sockets without the token, and binds loopback', async () => {
    expect(served.url.startsWith('http://127.0.0.1:')).toBe(true);
    const page = await browser.newPage();
    const noToken = await page.goto(`http://127.0.0.1:${served.port}/`);
    expect(noToken!.status()).toBe(401);
    const wrong = await page.goto(`http://127.0.0.1:${served.port}/?token=not-the-token`);
    expect(wrong!.status()).toBe(401);
    // From that unauthorised page, a WebSocket to the API must not open.
    const opened = await page.evaluate(
      (port) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/ws?token=wrong`);
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('refused');
        }),
      served.port,
    );
    expect(opened).toBe('refused');
    await page.close();
  });
});
