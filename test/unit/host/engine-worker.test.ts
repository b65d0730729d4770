import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

// The real engine on the demo bundle, in the real worker.
let host: StudioHost;
let studio: StudioApi;
// 128 bytes: the demo bundle's text.maxBytes; round(128 × 0.9) = 115 frames, its frame limit.
const LONG = 'A long prompt so that the demo talker runs to its frame limit. '.repeat(3).slice(0, 128);

beforeAll(() => {
  ensureBuilt();
  host = new StudioHost({ dataDir: mkdtempSync(join(tmpdir(), 'engine-worker-')) });
  studio = createDirectClient(host);
});
afterAll(() => host.dispose());

function firstProgress(jobId: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const offDone = studio.on('jobFinished', (id, o) => id === jobId && reject(new Error(`job ended before progress: ${JSON.stringify(o)}`)));
    const off = studio.on('progress', (id, p) => {
      if (id === jobId && p.phase === 'A' && p.step >= 2) {
        off();
        offDone();
        resolve();
      }
    });
  });
}

describe('StudioHost with the engine worker', () => {
  it('a worker killed mid-synthesis fails that job saying so, and the next synthesis succeeds', async () => {
    const restarts: string[] = [];
    studio.on('workerRestarted', (reason) => restarts.push(reason));
    const { jobId } = await studio.compare({ text: LONG, profileA: 'eager', profileB: 'graph' });
    await firstProgress(jobId);
    await host.engineWorker.current!.kill();
    await expect(studio.comparisonResult({ jobId })).rejects.toMatchObject({
      kind: 'engine',
      message: expect.stringMatching(/engine worker (?:exited with code 1|was killed by SIGKILL) during comparison "eager" vs "graph" \(job-\d+\); a new worker was started/),
    });
    expect(restarts).toHaveLength(1);

    const again = await studio.compare({ text: 'Hello there.', profileA: 'eager', profileB: 'graph' });
    const result = await studio.comparisonResult(again);
    expect(result.report.verdict).toMatch(/identical|within-tolerance|diverged/);
    expect(result.a!.samples.length).toBeGreaterThan(0);
  });

  it('cancels a long comparison: the job ends as cancelled, nothing is saved', async () => {
    const before = (await studio.listHistory()).entries.length;
    const outcomes: string[] = [];
    studio.on('jobFinished', (_id, o) => outcomes.push(o.state));
    const { jobId } = await studio.compare({ text: LONG, profileA: 'eager', profileB: 'graph' });
    await firstProgress(jobId);
    await expect(studio.cancel({ jobId })).resolves.toEqual({ cancelled: true });
    await expect(studio.comparisonResult({ jobId })).rejects.toMatchObject({ kind: 'cancelled' });
    expect(outcomes).toEqual(['cancelled']);
    expect((await studio.listHistory()).entries.length).toBe(before);
  });

  it('synthesizes one profile and refuses a bad profile string at the boundary', async () => {
    const { jobId } = await studio.synthesize({ text: 'Hi.', profile: 'graph,vocoder=stream' });
    const r = await studio.synthesisResult({ jobId });
    expect(r.profile).toBe('graph,vocoder=stream');
    expect(r.codes.length).toBe(r.frames * r.codebooks);
    expect(r.steps.length).toBe(r.frames);
    await expect(studio.synthesize({ text: 'Hi.', profile: 'graph,vocodr=stream' })).rejects.toMatchObject({ kind: 'profile', message: expect.stringContaining('"vocodr"') });
  });
});
