import { describe, expect, it } from 'vitest';
import { createDirectClient, dispatch } from '../../../electron/common/api/create-client.js';
import { TypedEmitter } from '../../../electron/common/api/event-emitter.js';
import type { StudioEvents } from '../../../electron/common/api/events.js';
import type { StudioHandlers } from '../../../electron/common/api/studio-api.js';
import { ParityError } from '../../../electron/common/errors.js';

/** A host double that records what reached it; only the methods these tests call do anything. */
function recordingHost() {
  const calls: { method: string; request: unknown }[] = [];
  const events = new TypedEmitter<StudioEvents>();
  const host = new Proxy({} as StudioHandlers, {
    get(_t, prop) {
      if (prop === 'on') return events.on.bind(events);
      return async (request: unknown) => {
        calls.push({ method: String(prop), request });
        if (prop === 'compare') return { jobId: 'job-1' };
        if (prop === 'cancel') return { cancelled: 'yes' }; // wrong type on purpose: the client must refuse it
        throw new ParityError('bundle', 'bundle.json: missing', '/x/bundle.json');
      };
    },
  });
  return { host, calls, events };
}

describe('dispatch (host side of every transport)', () => {
  it('parses the request with the method schema and fills defaults before the host sees it', async () => {
    const { host, calls } = recordingHost();
    const reply = await dispatch(host, 'compare', { text: 'hello', profileA: 'eager', profileB: 'graph' });
    expect(reply).toEqual({ ok: true, value: { jobId: 'job-1' } });
    expect(calls[0].request).toMatchObject({ seed: 0, sampling: { mode: 'greedy', topK: 0 } });
  });

  it('refuses a bad profile string with a profile error naming the key, without calling the host', async () => {
    const { host, calls } = recordingHost();
    const reply = await dispatch(host, 'compare', { text: 'hi', profileA: 'eager', profileB: 'graph,vocodr=stream' });
    expect(reply.ok).toBe(false);
    if (!reply.ok) {
      expect(reply.error.kind).toBe('profile');
      expect(reply.error.message).toMatch(/profileB: profile "graph,vocodr=stream": .*vocodr/);
    }
    expect(calls).toHaveLength(0);
  });

  it('refuses unknown methods by name and keeps the kind and place of host errors', async () => {
    const { host } = recordingHost();
    const unknown = await dispatch(host, 'constructor', {});
    expect(unknown.ok === false && unknown.error.message).toMatch(/unknown StudioApi method "constructor"/);
    const bundle = await dispatch(host, 'bundleInfo', {});
    expect(bundle).toEqual({ ok: false, error: { kind: 'bundle', message: 'bundle.json: missing', where: '/x/bundle.json' } });
  });
});

describe('createDirectClient', () => {
  it('throws ParityError with the host kind, checks responses, and forwards typed events', async () => {
    const { host, events } = recordingHost();
    const client = createDirectClient(host);
    await expect(client.bundleInfo()).rejects.toMatchObject({ kind: 'bundle', message: 'bundle.json: missing' });
    await expect(client.cancel({ jobId: 'job-1' })).rejects.toThrow(/cancelled/);
    const seen: unknown[] = [];
    const off = client.on('progress', (jobId, p) => seen.push([jobId, p.phase, p.step]));
    events.emit('progress', 'job-1', { phase: 'A', step: 3, totalSteps: 10, fraction: 0.1 });
    off();
    events.emit('progress', 'job-1', { phase: 'A', step: 4, totalSteps: 10, fraction: 0.2 });
    expect(seen).toEqual([['job-1', 'A', 3]]);
  });
});
