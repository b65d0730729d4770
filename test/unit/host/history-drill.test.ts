import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { DrillReport } from '../../../electron/common/report/drill.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';
import { zeroMetrics } from './zero-metrics.js';

const hosts: StudioHost[] = [];
const newClient = (dataDir: string) => {
  const host = new StudioHost({ dataDir });
  hosts.push(host);
  return createDirectClient(host);
};
beforeAll(ensureBuilt);
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
});

describe('history: the drill-down kept with an entry', () => {
  it('a drill of a synthesized comparison is saved in its entry and comes back from a new host', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'drill-history-'));
    const studio = newClient(dataDir);
    // The fault from the e2e drill test: B's audio feedback goes stale from step 8 (the demo talker runs past it).
    const job = await studio.compare({ text: 'A prompt long enough to run past step eight.', profileA: 'eager', profileB: 'eager,fault=stale-feedback@8' });
    const { historyId } = await studio.comparisonResult(job);
    expect((await studio.openHistory({ id: historyId })).drill).toBeUndefined();
    const drill = await studio.drillResult(await studio.drillHistory({ id: historyId }));
    expect(drill.step).toBe(8);
    // Written by rename: no temporary file is left beside it.
    expect(readdirSync(join(dataDir, 'history', historyId)).filter((n) => n.includes('drill'))).toEqual(['drill.json']);
    const reopened = await newClient(dataDir).openHistory({ id: historyId });
    expect(reopened.drill).toEqual(drill);
  }, 60_000);

  it('keeps non-finite numbers (as report.json does); a damaged drill.json leaves the comparison readable', async () => {
    const store = new HistoryStore(mkdtempSync(join(tmpdir(), 'drill-store-')));
    // Any report that parses; its values do not matter here.
    const side = { sampleRate: 8000, channels: 1, downmix: 'mono' };
    const report = { schema: 'tts-parity-report/1', createdAt: '2026-01-01T00:00:00.000Z', tool: { name: 't', version: '0' }, sources: { a: side, b: side }, metrics: zeroMetrics() } as never;
    const { historyId } = await store.save({ kind: 'traces', title: 'a vs b', report });
    const nan = { shape: [1, 2], min: Number.NaN, max: Number.POSITIVE_INFINITY, mean: Number.NaN, nan: 1, inf: 1 };
    const drill = {
      status: 'found',
      step: 5,
      divergenceStage: 'talker-logits',
      network: 'talker',
      tolerance: { abs: 1e-4, rel: 0 },
      input: null,
      node: { kind: 'node', name: 'logits', opType: 'MatMul', a: { ...nan, nan: 0, inf: 0, min: 0, max: 1, mean: 0.5 }, b: nan, maxAbsDiff: Number.NaN, differing: 2, nanCount: 1, side: 'B' },
      compared: 30,
      skipped: 0,
      unmatched: 0,
      summary: 'step 5 (talker): node logits holds NaN',
    } as unknown as DrillReport;
    await store.saveDrill(historyId, drill);
    expect(readFileSync(join(store.root, historyId, 'drill.json'), 'utf8')).toContain('"NaN"');
    const back = (await new HistoryStore(join(store.root, '..')).open(historyId)).drill;
    expect(back?.node?.b.max).toBe(Number.POSITIVE_INFINITY);
    expect(Number.isNaN(back?.node?.b.mean)).toBe(true);
    writeFileSync(join(store.root, historyId, 'drill.json'), '{"status":');
    const damaged = await store.open(historyId);
    expect(damaged.drill).toBeUndefined();
    expect(damaged.report.schema).toBe('tts-parity-report/1');
  });
});
