import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DrillNeighbourhood } from '../../electron/common/report/drill.js';
import type { Served } from './serve-process.js';
import { startStudio, stopStudio } from './studio-ui-helpers.js';

// The drill-down drawn as a graph in Chromium (browser mode, the host's real drill): the first divergent
// node's neighbourhood as SVG nodes and edges, the nodes and edges the report names, statistics on hover
// and on keyboard focus, the CLI's text kept folded. Screenshots at 1440×900 and 1024×700.
const SHOTS = 'test-results';

let served: Served;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'parity-ui-drill-graph-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  ({ served, browser, page } = await startStudio(dataDir, problems, { width: 1440, height: 900 }));
}, 120_000);
afterAll(() => stopStudio(browser, served));

/** Synthesizes A vs B, opens the Step trace tab and drills down; resolves with the neighbourhood the store holds. */
async function drill(profileA: string, profileB: string): Promise<DrillNeighbourhood> {
  const before = await page.locator('[data-history-id]').count();
  await page.getByLabel('Prompt').fill('Hello world');
  await page.getByLabel('Profile A').fill(profileA);
  await page.getByLabel('Profile B').fill(profileB);
  await page.getByRole('button', { name: 'Synthesize A/B' }).click();
  await expect.poll(() => page.locator('[data-history-id]').count(), { timeout: 60_000 }).toBe(before + 1);
  await page.getByRole('tab', { name: 'Step trace' }).click();
  await page.getByRole('button', { name: /^Drill down/ }).click();
  await page.getByTestId('drill-svg').waitFor({ timeout: 60_000 });
  return (await page.evaluate('window.__studio.store.getState().drill.report.neighbourhood')) as DrillNeighbourhood;
}

/** The SVG as drawn: node ids, and edges as "from→to". */
async function drawn(): Promise<{ nodes: string[]; edges: string[] }> {
  const nodes = await page.getByTestId('drill-svg-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')!));
  const edges = await page.locator('.drill-svg-edge').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-from')}→${e.getAttribute('data-to')}`));
  return { nodes, edges };
}

describe('studio UI in Chromium: the drill-down as a graph', () => {
  it('graph vs graph,fault=nan@talker:4: the NaN input and the node it reaches, joined, statistics on hover', async () => {
    const n = await drill('graph', 'graph,fault=nan@talker:4');
    const { nodes, edges } = await drawn();
    expect(nodes.sort()).toEqual(['input:inputs_embeds', 'node:layers.0.input_layernorm.square']);
    expect(edges).toEqual(['input:inputs_embeds→node:layers.0.input_layernorm.square']);
    expect(n.path).toEqual(['input:inputs_embeds', 'node:layers.0.input_layernorm.square']);
    // Hovering the input shows both sides' statistics: B holds the NaN.
    await page.locator('[data-id="input:inputs_embeds"]').hover();
    const details = page.getByTestId('drill-node-details');
    await expect.poll(() => details.textContent()).toContain('inputs_embeds');
    const text = (await details.innerText()).replace(/\s+/g, ' ');
    expect(text).toMatch(/A \[−?[\d.]+, [\d.]+\] mean −?[\d.]+ · shape \[1×1×64\]/);
    expect(text).toMatch(/B \[−?[\d.]+, [\d.]+\] mean −?[\d.]+ · 1 NaN · shape \[1×1×64\]/);
    expect(text).toContain('|Δ| 1 NaN over 1 element');
    // The CLI's text is kept, folded, for copying, and names the path too.
    expect(await page.getByTestId('drill-lines').textContent()).toContain('path from the network input, max |Δ| of each: input inputs_embeds (1 NaN) → layers.0.input_layernorm.square (1 NaN)');
    expect(await page.locator('details.drill-text').getAttribute('open')).toBeNull();
    await page.getByTestId('drill-graph').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/ui-drill-graph-nan-1440.png` });
    expect(problems).toEqual([]);
  }, 120_000);

  it('fp16 vs its fp16-overflow export: the path from the input embeddings to the overflowing MatMul, by keyboard too', async () => {
    const n = await drill('graph,precision=fp16', 'graph,precision=fp16,fault=fp16-overflow');
    const { nodes, edges } = await drawn();
    expect(nodes.sort()).toEqual(n.nodes.map((x) => x.id).sort());
    expect(edges.sort()).toEqual(n.edges.map((e) => `${e.from}→${e.to}`).sort());
    expect(n.path[0]).toBe('input:inputs_embeds');
    expect(n.path.at(-1)).toBe('node:layers.1.mlp.down.out');
    // The first divergent node is red (heat 1: every element differs, none finite on B), a node upstream green (|Δ| 0).
    const stroke = (id: string) => page.locator(`[data-id="${id}"] rect`).first().getAttribute('stroke');
    expect(await stroke('node:layers.1.mlp.down.out')).toBe('hsl(0, 70%, 42%)');
    expect(await stroke('input:inputs_embeds')).toBe('hsl(130, 70%, 42%)');
    // Keyboard: focus the first node of the path, then ↓ moves along it; each focus shows its statistics.
    // (The pointer is moved off the graph first: hovering a node shows that node's statistics too.)
    await page.mouse.move(0, 0);
    await page.locator(`[data-id="${n.path[0]}"]`).focus();
    await expect.poll(() => page.getByTestId('drill-node-details').textContent()).toContain('inputs_embeds');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.getAttribute("data-id")')).toBe(n.path[1]);
    await expect.poll(() => page.getByTestId('drill-node-details').textContent()).toContain(n.nodes.find((x) => x.id === n.path[1])!.name);
    await page.locator('[data-id="node:layers.1.mlp.down.out"]').focus();
    const text = (await page.getByTestId('drill-node-details').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('first divergent node');
    expect(text).toMatch(/B \[−∞, ∞\]/);
    await page.getByTestId('drill-graph').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/ui-drill-graph-fp16-1440.png`, fullPage: true });
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByTestId('drill-graph').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/ui-drill-graph-fp16-1024.png` });
    expect(problems).toEqual([]);
  }, 120_000);
});
