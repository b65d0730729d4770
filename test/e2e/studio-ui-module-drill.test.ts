import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTrace } from '../../electron/common/trace/write-trace.js';
import { header, logitRow, makeStep, makeSteps } from '../unit/common/forensics/synthetic-trace.js';
import { sidecarBytes } from '../unit/common/trace/sidecar-bytes.js';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';

// Browser mode in Chromium: two traces picked with their module sidecars (in the other order) become one
// comparison whose step-trace tab shows the module drill-down, as parity compare-trace prints it.
let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-modules-'));

beforeAll(async () => {
  ({ served, browser, page } = await startStudio(dataDir, problems));
}, 120_000);
afterAll(() => stopStudio(browser, served));

function writeFiles(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const q = 2;
  const steps = makeSteps(4, q);
  const sidecar = (shift: number) =>
    sidecarBytes([1, 2, 3, 4].flatMap((n) => [
      { key: `${n}/00000/talker.layers.0.mlp`, shape: [2], values: [n, 1] },
      { key: `${n}/00001/talker.layers.1.mlp`, shape: [2], values: [n, n >= 3 ? 1 + shift : 1] },
    ]));
  writeFileSync(join(dir, 'run-a.jsonl'), writeTrace(header(q, { modules: 'x.safetensors' }), steps));
  writeFileSync(join(dir, 'run-b.jsonl'), writeTrace(header(q, { modules: 'y.safetensors' }), steps.map((s) => (s.step >= 3 ? makeStep(s.step, q, logitRow(s.step, 0.5)) : s))));
  writeFileSync(join(dir, 'x.safetensors'), sidecar(0));
  writeFileSync(join(dir, 'y.safetensors'), sidecar(0.5));
  return ['y.safetensors', 'run-a.jsonl', 'x.safetensors', 'run-b.jsonl'].map((f) => join(dir, f));
}

describe('studio UI: traces imported with module sidecars', () => {
  it('shows the first module that differs at the first divergent step in the drill panel', async () => {
    await page.getByLabel('Open WAV or trace files').setInputFiles(writeFiles(join(dataDir, 'import')));
    await page.locator('li.current', { hasText: 'run-a.jsonl vs run-b.jsonl' }).waitFor({ timeout: 20_000 });
    await page.getByRole('tab', { name: 'Step trace' }).click();
    const lines = page.getByTestId('module-drill-lines');
    await lines.waitFor({ timeout: 20_000 });
    expect((await lines.textContent())!.split('\n')[0]).toBe('Module drill-down: step 3: first module whose output differs: talker.layers.1.mlp, max |Δ| 0.5 over 1 element(s)');
    expect(await page.getByRole('button', { name: /^Drill down/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);
});
