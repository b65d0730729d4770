import { describe, expect, it } from 'vitest';
import { createClient, type ClientChannel } from '../../../../electron/common/api/create-client.js';
import { CancelledError, ParityError, type ErrorPayload } from '../../../../electron/common/errors.js';

/** A channel whose events the test sends by hand and whose calls all fail with `error`. */
function channel(error: ErrorPayload = { kind: 'input', message: 'no' }) {
  let deliver: (name: string, args: unknown[]) => void = () => undefined;
  const ch: ClientChannel = {
    call: async () => ({ ok: false, error }),
    subscribe: (listener) => ((deliver = listener), () => undefined),
  };
  return { ch, send: (name: string, args: unknown[]) => deliver(name, args) };
}

describe('createClient', () => {
  it('says so when an event does not match its schema, and delivers the ones that do', () => {
    const { ch, send } = channel();
    const told: string[] = [];
    const got: unknown[] = [];
    createClient(ch, { onMalformedEvent: (line) => told.push(line) }).on('progress', (jobId, p) => got.push([jobId, p.step]));
    send('progress', ['job-1', { phase: 'A', step: 2, totalSteps: 4, fraction: 0.5 }]);
    send('progress', ['job-1', { phase: 'A', step: -1, totalSteps: 4, fraction: 0.5 }]);
    expect(got).toEqual([['job-1', 2]]);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^studio: a "progress" event was dropped: it does not match its schema \(1\.step: /);
  });

  it('raises a failed call as the error its payload describes: a cancel as a CancelledError', async () => {
    const cancelled = createClient(channel({ kind: 'cancelled', message: 'job-3 cancelled' }).ch);
    await expect(cancelled.cancel({ jobId: 'job-3' })).rejects.toBeInstanceOf(CancelledError);
    const refused = createClient(channel({ kind: 'wav', message: 'a.wav: not RIFF', where: 'a.wav' }).ch);
    await expect(refused.cancel({ jobId: 'job-3' })).rejects.toMatchObject({ kind: 'wav', where: 'a.wav', message: 'a.wav: not RIFF' });
    await expect(refused.cancel({ jobId: 'job-3' })).rejects.toBeInstanceOf(ParityError);
  });
});
