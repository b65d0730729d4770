import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import type { ParityReport } from '../../../electron/common/report/report.js';
import { zeroMetrics } from './zero-metrics.js';

// The values do not matter here, only that the report parses.

const report = {
  schema: 'tts-parity-report/1',
  createdAt: '2026-01-01T00:00:00.000Z',
  tool: { name: 't', version: '0' },
  sources: { a: { sampleRate: 8000, channels: 1, downmix: 'mono' }, b: { sampleRate: 8000, channels: 1, downmix: 'mono' } },
  metrics: zeroMetrics(),
} as unknown as ParityReport;

describe('history: ABX sessions kept with an entry', () => {
  it('saves abx.json and returns it from open; a damaged abx.json leaves the comparison readable', async () => {
    const store = new HistoryStore(mkdtempSync(join(tmpdir(), 'abx-')));
    const { historyId } = await store.save({ kind: 'wavs', title: 'a vs b', report, a: { sampleRate: 8000, samples: new Float32Array(8) } });
    expect((await store.open(historyId)).abx).toBeUndefined();
    const session = { seed: 7, trials: [{ x: 'A' as const, answer: 'A' as const }], correct: 1, pGuess: 0.5, savedAt: '2026-01-01T00:00:01.000Z' };
    await store.saveAbx(historyId, session);
    expect((await store.open(historyId)).abx).toEqual(session);
    writeFileSync(join(store.root, historyId, 'abx.json'), '{not json');
    const reopened = await store.open(historyId);
    expect(reopened.abx).toBeUndefined();
    expect(reopened.a?.samples.length).toBe(8);
  });

  it('refuses an unknown entry with its id in the message', async () => {
    const store = new HistoryStore(mkdtempSync(join(tmpdir(), 'abx-')));
    const session = { seed: 1, trials: [], correct: 0, pGuess: 1, savedAt: 'x' };
    await expect(store.saveAbx('20250101-000000-abcdef', session)).rejects.toThrow(/20250101-000000-abcdef.*not found/);
  });

  it('writes abx.json through the one writer: a folder or FIFO there is refused in one line, no temporary is left', async () => {
    const store = new HistoryStore(mkdtempSync(join(tmpdir(), 'abx-')));
    const { historyId } = await store.save({ kind: 'wavs', title: 'a vs b', report, a: { sampleRate: 8000, samples: new Float32Array(8) } });
    const dir = join(store.root, historyId);
    const session = { seed: 1, trials: [], correct: 0, pGuess: 1, savedAt: 'x' };
    const before = readdirSync(dir).sort();
    mkdirSync(join(dir, 'abx.json'));
    await expect(store.saveAbx(historyId, session)).rejects.toThrow(`history entry file ${join(dir, 'abx.json')}: is a folder (give a file path)`);
    rmSync(join(dir, 'abx.json'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'abx.json')]);
    await expect(store.saveAbx(historyId, session)).rejects.toThrow(`history entry file ${join(dir, 'abx.json')}: is not a regular file (a device, FIFO or socket); give a file path`);
    rmSync(join(dir, 'abx.json'));
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});
