import { describe, expect, it } from 'vitest';
import { CompareRequest } from '../../../electron/common/api/comparison.js';
import type { StudioApi } from '../../../electron/common/api/studio-api.js';
import { createStudioStore } from '../../../renderer/src/store/studio-store.js';

/** A StudioApi double that records each compare request and never finishes the job. */
function recordingStudio() {
  const requests: unknown[] = [];
  const studio = {
    compare: async (r: unknown) => (requests.push(r), { jobId: 'job-1' }),
    comparisonResult: () => new Promise(() => undefined),
  } as unknown as StudioApi;
  return { studio, requests };
}

describe('the form\'s teacher-forcing choice reaches the compare request', () => {
  it('off by default (no field sent); on: teacherForce true, which the API schema accepts', async () => {
    const off = recordingStudio();
    void createStudioStore(off.studio).getState().start();
    await new Promise((r) => setTimeout(r, 0));
    expect(off.requests[0]).not.toHaveProperty('teacherForce');

    const on = recordingStudio();
    const store = createStudioStore(on.studio);
    store.getState().setForm({ teacherForce: true });
    void store.getState().start();
    await new Promise((r) => setTimeout(r, 0));
    expect(on.requests[0]).toMatchObject({ teacherForce: true });
    expect(CompareRequest.parse(on.requests[0]).teacherForce).toBe(true);
  });
});
