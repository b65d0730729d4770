import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectClient } from '../../../electron/common/api/create-client.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { StudioHost } from '../../../electron/host/studio-host.js';
import { BAKED_NODE, writeBakedLengthBundle } from '../../cli/bundle-smoke-baked.js';
import { ensureBuilt } from './ensure-built.js';

// The real engine worker on a demo bundle whose eager talker has a GQA length baked at 6 positions.
const dir = mkdtempSync(join(tmpdir(), 'ort-error-worker-'));
let host: StudioHost;
let studio: StudioApi;

beforeAll(async () => {
  ensureBuilt();
  await writeBakedLengthBundle(join(dir, 'bundle'), 6);
  host = new StudioHost({ dataDir: join(dir, 'data'), bundleDir: join(dir, 'bundle') });
  studio = createDirectClient(host);
});
afterAll(async () => {
  await host.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('an ONNX Runtime failure in the engine worker', () => {
  it('reaches the client with its kind (bundle: the bundle is at fault) and its whole message', async () => {
    // "hello": BOS + 5 bytes, so step 1 runs at 6 positions and step 2 (7) fails.
    const job = await studio.synthesize({ text: 'hello', profile: 'eager' });
    await expect(studio.synthesisResult(job)).rejects.toMatchObject({
      kind: 'bundle',
      message: expect.stringMatching(
        new RegExp(`^talker eager-fp32 \\(${join(dir, 'bundle', 'talker.eager.fp32.onnx')}\\), step 2: ONNX Runtime failed in node "${BAKED_NODE}" \\(Reshape\\) fed inputs_embeds float32 \\[1, 1, 64\\], .*; fix: a length baked into the export`),
      ),
    });
  }, 60_000);
});
