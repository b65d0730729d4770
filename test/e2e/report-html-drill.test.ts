import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runParity } from '../cli/run-parity.js';
import { ensureBuiltFrom } from '../unit/host/ensure-built.js';
import { CHROMIUM_FLAGS } from './studio-ui-helpers.js';

// report.html of `parity compare --drill` draws the drill-down as the studio does (its DrillGraph
// component): the nodes and edges report.json names, statistics on hover; the CLI's lines stay below.
const tmp = mkdtempSync(join(tmpdir(), 'report-html-drill-'));
const dir = join(tmp, 'nan');
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  ensureBuiltFrom(['electron/host', 'electron/engine', 'electron/common', 'electron/cli']);
  const run = await runParity(['compare', '--text', 'Hello world', '--a', 'graph', '--b', 'graph,fault=nan@talker:4', '--drill', '--out', dir], { timeoutMs: 90_000 });
  expect(run.stderr).toBe('');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ offline: true, viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
}, 150_000);

afterAll(async () => {
  await browser?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('report.html: the drill-down as a graph', () => {
  it('draws the neighbourhood report.json names, B’s NaN on hover, and keeps the lines', async () => {
    const drill = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).drill as { neighbourhood: { nodes: { id: string }[]; edges: { from: string; to: string }[] } };
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const section = page.getByTestId('drill');
    await section.getByTestId('drill-svg').waitFor();
    const nodes = await section.getByTestId('drill-svg-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')!));
    expect(nodes.sort()).toEqual(drill.neighbourhood.nodes.map((n) => n.id).sort());
    expect(nodes).toContain('input:inputs_embeds');
    const edges = await section.locator('.drill-svg-edge').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-from')}→${e.getAttribute('data-to')}`));
    expect(edges.sort()).toEqual(drill.neighbourhood.edges.map((e) => `${e.from}→${e.to}`).sort());
    await page.locator('[data-id="input:inputs_embeds"]').hover();
    await expect.poll(async () => (await page.getByTestId('drill-node-details').innerText()).replace(/\s+/g, ' ')).toMatch(/B \[−?[\d.]+, [\d.]+\] mean −?[\d.]+ · 1 NaN · shape/);
    // A node box has the panel colour, not the black an undefined colour would give.
    expect(await page.evaluate(`getComputedStyle(document.querySelector('[data-id="input:inputs_embeds"] rect')).fill`)).not.toBe('rgb(0, 0, 0)');
    expect(await section.locator('li').first().textContent()).toMatch(/\S/);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/report-html-drill-1280.png' });
    expect(problems).toEqual([]);
  }, 60_000);
});
