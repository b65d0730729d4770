import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Served } from './serve-process.js';
import { CHECKOUT_PARITY } from '../setup/checkout-parity.js';
import { startStudio, stopStudio, writeImportFiles, writeTraceImportFiles } from './studio-ui-helpers.js';

// The studio UI end to end in Chromium against `parity serve` (browser mode): importing WAVs and traces
// (and what is said about a file that is neither) and exporting them as fixtures. One server and page
// are shared by the tests, which run in order. Synthesized comparisons: studio-ui-synthesis.test.ts.
const SHOTS = 'test-results';

let served: Served;
let browser: Browser;
let page: Page;
/** Console errors, CSP violations, failed requests and page errors of the shared page. */
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-import-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(() => stopStudio(browser, served));

/** Clicks Export fixture on the comparison on screen and returns the folder the export result names. */
async function exportShown(): Promise<string> {
  await page.getByRole('button', { name: 'Export fixture' }).click();
  const result = page.getByTestId('export-result');
  await result.waitFor({ timeout: 20_000 });
  return (await result.locator('code').textContent())!;
}

describe('studio UI in Chromium (browser mode): imports and fixture export', () => {
  it('imports two WAVs, and says clearly what is wrong with a non-WAV', async () => {
    const files = writeImportFiles(join(dataDir, 'import'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([files.a, files.notWav]);
    const notice = page.getByTestId('notice').last();
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toMatch(/notes\.txt.*(RIFF|WAV)/i);
    await page.screenshot({ path: `${SHOTS}/ui-import-error-1280.png` });
    // Not dismissed: the next import clears the notice of the refused one by itself.
    await page.getByLabel('Open WAV or trace files').setInputFiles([files.b, files.a]);
    await page.locator('li.current', { hasText: 'engine-b.wav vs engine-a.wav' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('notice').count()).toBe(0);
    // Imported audio is measured, not judged (the verdict rule needs step traces).
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^No verdict/);
    // The pane names A and B, says the form was not used, and swaps a reversed pair in one click.
    expect(await page.getByTestId('sides').innerText()).toMatch(/^Imported\s+A: engine-b\.wav\s+B: engine-a\.wav\s+Not made with the settings on the left\./);
    await page.getByRole('button', { name: 'Swap A/B' }).click();
    await page.locator('li.current', { hasText: 'engine-a.wav vs engine-b.wav' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('side-a').textContent()).toContain('A: engine-a.wav');
    await page.getByRole('tab', { name: 'Metrics' }).click();
    expect(await page.getByRole('row', { name: /Length A \/ B/ }).textContent()).toContain('48000 / 48000');
    // The reversed import goes; the pair in the right order stays on screen (the export test exports it).
    // Deleting asks first (the host removes the folder): nothing goes until the row's Delete is pressed.
    await page.getByRole('button', { name: /^Delete engine-b\.wav vs engine-a\.wav/ }).click();
    const question = page.getByTestId('history-confirm');
    expect(await question.textContent()).toMatch(/^Delete “engine-b\.wav vs engine-a\.wav”\?/);
    expect(await page.locator('[data-history-id]').count()).toBe(2);
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.locator('[data-history-id]').count()).toBe(1);
    // Swap A/B stays with the entry: in a fresh page (the imported files no longer in memory) the reopened
    // import still offers it, since the host kept its files.
    await page.goto(served.url);
    await page.locator('li[data-history-id] button', { hasText: 'engine-a.wav vs engine-b.wav' }).click();
    await page.locator('li.current', { hasText: 'engine-a.wav vs engine-b.wav' }).waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Swap A/B' }).waitFor({ timeout: 10_000 });
  }, 60_000);

  it('exports a fixture under the data dir, asks before replacing it', async () => {
    const dir = await exportShown();
    expect(dir.startsWith(join(dataDir, 'exports'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['a.wav', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png']);
    await page.getByRole('button', { name: 'Export fixture' }).click();
    await page.getByRole('alertdialog').waitFor();
    await page.screenshot({ path: `${SHOTS}/ui-export-confirm-1280.png` });
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  }, 30_000);

  it('imports two traces with their WAVs in any order as one comparison: divergence step and audio metrics', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    const f = writeTraceImportFiles(join(dataDir, 'import-traces'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([f.wavA]);
    const notice = page.getByTestId('notice').last();
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.textContent()).toContain('Only one WAV file (run-a.wav): a comparison needs a second WAV for B.');
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    // Mixed order: each WAV still goes with the trace of its name.
    await page.getByLabel('Open WAV or trace files').setInputFiles([f.wavB, f.traceA, f.wavA, f.traceB]);
    await page.locator('li.current', { hasText: 'run-a.jsonl vs run-b.jsonl' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^Diverged/);
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 3 \(talker-logits\)/);
    await page.getByTestId('waveform-ab').waitFor({ timeout: 10_000 });
    await page.getByRole('tab', { name: 'Metrics' }).click();
    // 4 frames × 1920 samples each side.
    expect(await page.getByRole('row', { name: /Length A \/ B/ }).textContent()).toContain('7680 / 7680');
    await page.screenshot({ path: `${SHOTS}/ui-import-traces-wavs-1280.png` });
  }, 60_000);

  it('exports the imported traces as `parity compare-trace --out` writes them: step table, Reproduce and gate lines', async () => {
    const dir = await exportShown();
    expect(dir.startsWith(join(dataDir, 'exports'))).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['a.jsonl', 'a.wav', 'b.jsonl', 'b.wav', 'diff.wav', 'overlay.png', 'report.html', 'report.json', 'report.md', 'spectrogram-diff.png', 'steps.png']);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain('- A: run-a.jsonl (hand, 4 steps)\n');
    expect(md).toContain('### Steps around the first divergence');
    // The page gives file names, not paths, so Reproduce reads the copies stored in the export and writes
    // beside it; the studio searches the CLI's default ±50 ms, so no --max-lag-ms.
    expect(md).toContain(`\`\`\`sh\n${CHECKOUT_PARITY} compare-trace ${dir}/a.jsonl ${dir}/b.jsonl --wav-a ${dir}/a.wav --wav-b ${dir}/b.wav --out ${dir}-rerun\n\`\`\`\n`);
    expect(md).toContain(`\`\`\`sh\n${CHECKOUT_PARITY} gate ${dir}\n\`\`\`\n`);
    expect(problems).toEqual([]);
  }, 30_000);
  it('imports two traces without their WAVs: the step localisation, and the audio said to be not compared', async () => {
    const f = writeTraceImportFiles(join(dataDir, 'import-traces-only'));
    await page.getByLabel('Open WAV or trace files').setInputFiles([f.traceA, f.traceB]);
    await page.locator('li.current', { hasText: 'run-a.jsonl vs run-b.jsonl' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('verdict').textContent()).toMatch(/^Diverged/);
    expect(await page.getByTestId('divergence-summary').textContent()).toMatch(/^First divergence: step 3 \(talker-logits\)/);
    expect(await page.getByTestId('notice').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/ui-import-traces-only-1280.png` });
    expect(problems).toEqual([]);
  }, 30_000);

  it('shows the report’s warnings under the verdict: two traces whose headers disagree on frameRate', async () => {
    const f = writeTraceImportFiles(join(dataDir, 'import-traces-rates'));
    // B's engine wrote 25 frames/s: compare-traces.ts runs the comparison and records a warning (docs/trace-format.md).
    writeFileSync(f.traceB, readFileSync(f.traceB, 'utf8').replace('"frameRate":12.5', '"frameRate":25'));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.getByLabel('Open WAV or trace files').setInputFiles([f.traceA, f.traceB]);
    const warnings = page.getByTestId('report-warnings');
    await warnings.waitFor({ timeout: 20_000 });
    expect(await warnings.getByRole('listitem').allTextContents()).toEqual([
      "the trace headers disagree on frameRate: run-a.jsonl 12.5/s, run-b.jsonl 25/s; steps are compared by number and times use A's 12.5/s",
    ]);
    await page.screenshot({ path: `${SHOTS}/ui-import-traces-warning-1440.png` });
    // An entry without warnings shows none.
    await page.locator('li', { hasText: 'engine-a.wav vs engine-b.wav' }).getByRole('button').first().click();
    await expect.poll(() => page.getByTestId('report-warnings').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 30_000);
});
