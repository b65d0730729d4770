import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../electron/common/wav/encode-wav.js';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';

// Degenerate audio in the studio (report/audio-check.ts): the verdict says what the takes are instead of
// a match or "No verdict", and the metrics say why a value is missing, never "n/a" alone.
const SHOTS = 'test-results';
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-degenerate-'));
const files = join(dataDir, 'files');
const RATE = 24000;
const N = 4 * 1920;

function wav(name: string, samples: Float32Array): string {
  const path = join(files, name);
  writeFileSync(path, encodeWav([samples], RATE, 'float32'));
  return path;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(files, { recursive: true });
  ({ served, browser, page } = await startStudio(dataDir, problems, { width: 1440, height: 900 }));
}, 120_000);
afterAll(() => stopStudio(browser, served));

async function importPair(paths: string[], entry: string): Promise<string> {
  await page.getByLabel('Open WAV or trace files').setInputFiles(paths);
  await page.locator('li.current', { hasText: entry }).waitFor({ timeout: 20_000 });
  const verdict = page.getByTestId('verdict');
  await expect.poll(() => verdict.textContent(), { timeout: 20_000 }).not.toBe('Measuring…');
  return (await verdict.textContent())!;
}

async function metricsText(): Promise<string> {
  await page.getByRole('tab', { name: 'Metrics' }).click();
  return page.getByRole('table', { name: 'Metrics' }).innerText();
}

describe('studio UI in Chromium: degenerate audio is never a match', () => {
  it('both silent (two equal traces with silent WAVs): the verdict says so; screenshots at 1440×900 and 1024×700', async () => {
    const header = '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000}';
    const step = (n: number) => `{"step":${n},"logits":{"mean":13.2,"std":2,"min":-5,"max":9,"argmax":7,"top5":[{"id":7,"logit":9}]},"codes":[7,${n}]}`;
    const trace = [header, step(1), step(2), step(3), step(4)].join('\n') + '\n';
    writeFileSync(join(files, 'quiet-a.jsonl'), trace);
    writeFileSync(join(files, 'quiet-b.jsonl'), trace);
    const paths = [join(files, 'quiet-a.jsonl'), join(files, 'quiet-b.jsonl'), wav('quiet-a.wav', new Float32Array(N)), wav('quiet-b.wav', new Float32Array(N))];
    const text = await importPair(paths, 'quiet-a.jsonl vs quiet-b.jsonl');
    expect(text).toBe('A and B are both digital silence: audio not compared');
    expect(await page.getByTestId('verdict').getAttribute('class')).toContain('verdict-degenerate-audio');
    const metrics = await metricsText();
    expect(metrics).toMatch(/Audio\s+A and B are both digital silence: audio not compared/);
    expect(metrics).toMatch(/Correlation \(lag 0\)\s+not measurable: A is digital silence, B is digital silence/);
    expect(metrics).not.toContain('n/a');
    // The timeline's line under the lanes: the difference's null depth says why it has none.
    expect(await page.getByTestId('diff-null').textContent()).toContain('null not measurable: A is digital silence, B is digital silence');
    await page.screenshot({ path: `${SHOTS}/ui-degenerate-silence-1440.png` });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.screenshot({ path: `${SHOTS}/ui-degenerate-silence-1024.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
  }, 60_000);

  const tone = () => Float32Array.from({ length: N }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 200 * i) / RATE));
  const pairs: [string, Float32Array, Float32Array, string][] = [
    ['one silent', tone(), new Float32Array(N), 'B is digital silence: audio not compared'],
    ['constant', new Float32Array(N).fill(0.2), new Float32Array(N).fill(0.2), 'A and B are both a constant 0.2 (no signal): audio not compared'],
    ['NaN', new Float32Array(N).fill(NaN), tone(), `A holds ${N} NaN/Inf samples: audio not compared`],
  ];
  pairs.forEach(([name, a, b, reason], i) => {
    it(`${name} (a WAV pair): said in place of "No verdict", and in the metrics`, async () => {
      const text = await importPair([wav(`case${i}-a.wav`, a), wav(`case${i}-b.wav`, b)], `case${i}-a.wav vs case${i}-b.wav`);
      expect(text).toBe(reason);
      const metrics = await metricsText();
      expect(metrics).toContain(reason);
      expect(metrics).not.toContain('n/a');
      if (name === 'NaN') await page.screenshot({ path: `${SHOTS}/ui-degenerate-nan-1440.png` });
    }, 60_000);
  });

  it('left the console clean', () => {
    expect(problems).toEqual([]);
  });
});
