import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../electron/common/errors.js';
import { compareTraces, type TraceSide } from '../../../../electron/common/forensics/compare-traces.js';
import type { TraceHeader } from '../../../../electron/common/trace/trace-format.js';
import { header, makeSteps } from './synthetic-trace.js';

const createdAt = '2023-11-14T22:13:20.000Z';
const side = (file: string, extra: Partial<TraceHeader> = {}, q = 4): TraceSide => ({ file, trace: { header: header(q, extra), steps: makeSteps(3, q) } });
/** A quarter second of silence at `rate`, as read from `path`. */
const withAudio = (s: TraceSide, path: string, rate: number): TraceSide => ({
  ...s,
  audio: { signal: new Float32Array(rate / 4), source: { path, sampleRate: rate, channels: 1, format: 'float32', downmix: 'mono' } },
});

const refusal = async (p: Promise<unknown>): Promise<string> => {
  const error = await p.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  return (error as Error).message;
};

describe('compareTraces: headers that disagree', () => {
  it('equal headers: no warnings field', async () => {
    const report = await compareTraces(side('a.jsonl'), side('b.jsonl'), { createdAt });
    expect(report.warnings).toBeUndefined();
    expect(report.verdict).toBe('within-tolerance');
  });

  it('a different q is refused in one line naming both files and values', async () => {
    const message = await refusal(compareTraces(side('a.jsonl', {}, 4), side('b.jsonl', {}, 2), { createdAt }));
    expect(message).toBe('the traces have different codebook counts, so their codes cannot be compared: a.jsonl q=4, b.jsonl q=2');
  });

  it("a different frame rate is a warning: steps still compared by number, times at A's rate", async () => {
    const report = await compareTraces(side('a.jsonl'), side('b.jsonl', { frameRate: 25 }), { createdAt });
    expect(report.warnings).toEqual(["the trace headers disagree on frameRate: a.jsonl 12.5/s, b.jsonl 25/s; steps are compared by number and times use A's 12.5/s"]);
    expect(report.divergence.firstStep).toBeNull();
  });

  it('a different sample rate is a warning without audio, and refused with WAVs at two rates', async () => {
    const report = await compareTraces(side('a.jsonl'), side('b.jsonl', { sampleRate: 16000 }), { createdAt });
    expect(report.warnings).toEqual(['the trace headers disagree on sampleRate: a.jsonl 24000 Hz, b.jsonl 16000 Hz; no audio is compared, so only the steps are']);
    const a = withAudio(side('a.jsonl'), 'a.wav', 24000);
    const b = withAudio(side('b.jsonl', { sampleRate: 16000 }), 'b.wav', 16000);
    expect(await refusal(compareTraces(a, b, { createdAt }))).toBe(
      "the runs' audio has different sample rates, so it cannot be compared sample by sample: a.wav 24000 Hz, b.wav 16000 Hz (resample one, or compare the traces without WAVs)",
    );
  });
});
