import { describe, expect, it } from 'vitest';
import { JobTable } from '../../../electron/host/job-table.js';

const never = () => new Promise<never>(() => undefined);

describe('JobTable', () => {
  it('never trims a job that is still running, however many finish after it', async () => {
    const table = new JobTable(2);
    const running = table.start('comparison', never);
    for (let i = 0; i < 5; i++) table.start('synthesis', async () => i);
    await new Promise((r) => setTimeout(r, 0));
    expect(table.has(running)).toBe(true);
    expect(table.cancel(running)).toBe(true);
  });

  it('says a trimmed job was dropped rather than unknown', async () => {
    const table = new JobTable(2);
    const first = table.start('synthesis', async () => 'first');
    for (let i = 0; i < 3; i++) table.start('synthesis', async () => i);
    await new Promise((r) => setTimeout(r, 0));
    await expect(table.take(first, 'synthesis')).rejects.toThrow(`the result of synthesis job "${first}" was dropped: it finished and was not collected before 2 newer jobs finished`);
    await expect(table.take('job-99', 'synthesis')).rejects.toThrow('no synthesis job "job-99" (unknown, or its result was already collected)');
  });

  it('hands each job its own signal: cancel aborts that one only, and a finished job cannot be cancelled', async () => {
    const table = new JobTable();
    const signals = new Map<string, AbortSignal>();
    const a = table.start('comparison', (id, signal) => (signals.set(id, signal), never()));
    const b = table.start('comparison', (id, signal) => (signals.set(id, signal), never()));
    const done = table.start('synthesis', async () => 1);
    await table.take(done, 'synthesis');
    expect(table.cancel(a)).toBe(true);
    expect(signals.get(a)!.aborted).toBe(true);
    expect(signals.get(b)!.aborted).toBe(false);
    expect(table.cancel(done)).toBe(false);
  });
});
