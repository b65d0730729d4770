import { afterEach, describe, expect, it } from 'vitest';
import { runWorkerTask } from '../../../../electron/host/tasks/worker-tasks.js';
import { WorkerSupervisor } from '../../../../electron/host/worker-supervisor.js';

// The test worker answers `{ do: 'echo' }` with `{ echo, pid }`: as the result of a real task kind it is
// malformed, which is what the table's parse must catch.
const url = new URL('../fixtures/test-worker.mjs', import.meta.url);
let supervisor: WorkerSupervisor | undefined;
afterEach(async () => supervisor?.dispose());

describe('runWorkerTask', () => {
  it('refuses a result that does not match its task kind with one line naming the kind, the job and the fields', async () => {
    supervisor = new WorkerSupervisor({ url, isolation: 'thread' });
    const task = { kind: 'info', do: 'echo', value: 1 } as unknown as { kind: 'info' };
    const failure = runWorkerTask(supervisor, 'job-7', 'bundle info', task);
    await expect(failure).rejects.toMatchObject({ kind: 'internal' });
    await expect(failure).rejects.toThrow(/^the engine worker returned a malformed "info" result for bundle info \(job-7\): dir: .*; name: /);
  });
});
