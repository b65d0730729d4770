import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { JobProgress } from '../../../electron/common/api/jobs.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { ensureBuilt } from './ensure-built.js';

const dataDir = mkdtempSync(join(tmpdir(), 'compare-save-progress-'));
let host: StudioHost;
let studio: StudioApi;

beforeAll(() => {
  ensureBuilt();
  host = new StudioHost({ dataDir });
  studio = createDirectClient(host);
});
afterAll(async () => {
  await host?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a comparison\'s last progress event', () => {
  it('says what the save phase does ("saving to history"), so the label is not a bare "save"', async () => {
    const seen: JobProgress[] = [];
    const current: { jobId?: string } = {};
    studio.on('progress', (id, p) => {
      if (id === current.jobId) seen.push(p);
    });
    const job = await studio.compare({ text: 'Hi.', profileA: 'eager', profileB: 'eager' });
    current.jobId = job.jobId;
    await studio.comparisonResult(job);
    expect(seen.at(-1)).toMatchObject({ phase: 'save', fraction: 1, message: 'saving to history' });
  }, 60_000);
});
