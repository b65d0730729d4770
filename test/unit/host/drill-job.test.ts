import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { JobProgress } from '../../../electron/common/api/jobs.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

// The engine runs in the host's worker process (the default isolation), as in the studio.
const dataDir = mkdtempSync(join(tmpdir(), 'drill-job-'));
let host: StudioHost;
let studio: StudioApi;
let historyId: string;
const drillFile = () => join(dataDir, 'history', historyId, 'drill.json');

/** Every progress event of one job, in arrival order. */
function progressOf(jobId: () => string | undefined): JobProgress[] {
  const seen: JobProgress[] = [];
  studio.on('progress', (id, p) => {
    if (id === jobId()) seen.push(p);
  });
  return seen;
}

beforeAll(async () => {
  ensureBuilt();
  host = new StudioHost({ dataDir });
  studio = createDirectClient(host);
  // B's audio feedback goes stale from step 20, so side A's re-run alone is 20 talker steps: a cancel
  // sent at its first step lands with most of the drill still ahead.
  const job = await studio.compare({ text: 'A prompt long enough to run well past step twenty of the talker loop.', profileA: 'eager', profileB: 'eager,fault=stale-feedback@20' });
  historyId = (await studio.comparisonResult(job)).historyId;
}, 60_000);
afterAll(async () => {
  await host?.dispose();
});

describe('drill-down as a job in the engine worker', () => {
  it('reports progress in order (re-run A, re-run B, promote, compare, save) and saves the result', async () => {
    const job: { id?: string } = {};
    const seen = progressOf(() => job.id);
    const { jobId } = await studio.drillHistory({ id: historyId });
    job.id = jobId;
    const drill = await studio.drillResult({ jobId });
    expect(drill.step).toBe(20);
    const phases = seen.map((p) => p.phase).filter((p, i, all) => p !== all[i - 1]);
    // 'load' only when this worker had not opened the bundle yet (it has: the comparison ran first).
    expect(phases).toEqual(['A', 'B', 'promote', 'compare', 'save']);
    for (let i = 1; i < seen.length; i++) expect(seen[i].fraction).toBeGreaterThanOrEqual(seen[i - 1].fraction);
    const a = seen.filter((p) => p.phase === 'A');
    expect(a[0].message).toBe('re-running side A (eager) up to step 20: talker step 0 of 20');
    expect(a.at(-1)?.message).toBe('re-running side A (eager) up to step 20: talker step 20 of 20');
    expect(seen.find((p) => p.phase === 'B')?.message).toMatch(/^re-running side B \(eager,fault=stale-feedback@20\) up to step 20/);
    expect(seen.find((p) => p.phase === 'promote')?.message).toMatch(/^promoting every node output of talker[^ ]*\.onnx \(\d+ nodes\) and opening it/);
    expect(seen.find((p) => p.phase === 'compare')?.message).toMatch(/^comparing run 1 of \d+ \(/);
    expect(seen.at(-1)).toMatchObject({ phase: 'save', fraction: 1 });
    expect(JSON.parse(readFileSync(drillFile(), 'utf8')).step).toBe(20);
  }, 60_000);

  it('a cancel mid-drill stops the worker at its next step: CancelledError, the saved drill untouched', async () => {
    const before = existsSync(drillFile()) ? readFileSync(drillFile()) : undefined;
    expect(before).toBeDefined(); // from the test above: a cancel must not replace it
    const generation = host.engineWorker.generation;
    const job: { id?: string } = {};
    const seen = progressOf(() => job.id);
    let cancelSent = false;
    const cancelled = new Promise<boolean>((resolve) =>
      studio.on('progress', (id, p) => {
        if (id !== job.id || p.phase !== 'A' || p.step !== 1 || cancelSent) return;
        cancelSent = true;
        void studio.cancel({ jobId: id }).then((r) => resolve(r.cancelled));
      }),
    );
    const finished = new Promise((resolve) => studio.on('jobFinished', (id, outcome) => id === job.id && resolve(outcome)));
    const { jobId } = await studio.drillHistory({ id: historyId });
    job.id = jobId;
    const error = await studio.drillResult({ jobId }).catch((e: unknown) => e);
    expect(await cancelled).toBe(true);
    expect(error).toBeInstanceOf(ParityError);
    expect((error as ParityError).kind).toBe('cancelled');
    expect(await finished).toMatchObject({ state: 'cancelled' });
    // Stopped by the engine between steps, not by killing the worker after the grace period (3 s).
    expect(host.engineWorker.generation).toBe(generation);
    // Nothing after the cancel: no promote, compare or save.
    expect(seen.map((p) => p.phase).some((p) => p === 'promote' || p === 'compare' || p === 'save')).toBe(false);
    expect(readFileSync(drillFile())).toEqual(before);
    expect((await studio.openHistory({ id: historyId })).drill?.step).toBe(20);
  }, 60_000);

  it('a drill result is collected once, and only from a drill-down job', async () => {
    const { jobId } = await studio.drillHistory({ id: historyId });
    await studio.drillResult({ jobId });
    await expect(studio.drillResult({ jobId })).rejects.toThrow(`no drill-down job "${jobId}" (unknown, or its result was already collected)`);
    const compare = await studio.compare({ text: 'Hi.', profileA: 'eager', profileB: 'eager' });
    await expect(studio.drillResult(compare)).rejects.toThrow(`job "${compare.jobId}" is a comparison, not a drill-down`);
  }, 60_000);
});
