import { describe, expect, it } from 'vitest';
import { ParityError } from '../../../../electron/common/errors.js';
import { readTrace } from '../../../../electron/common/trace/read-trace.js';
import { TraceError } from '../../../../electron/common/trace/trace-error.js';
import { writeTrace } from '../../../../electron/common/trace/write-trace.js';
import { header, makeStep, makeSteps } from '../forensics/synthetic-trace.js';
import { malformedTraces } from './malformed-traces.js';

function failure(text: string): TraceError {
  try {
    readTrace(text, 't.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(TraceError);
    expect((error as ParityError).kind).toBe('trace');
    return error as TraceError;
  }
  throw new Error('expected the trace to be rejected');
}

describe('tts-parity-trace/1 read/write', () => {
  it('round-trips header and steps, NaN and Infinity included', () => {
    const steps = makeSteps(5, 4);
    steps[2] = makeStep(3, 4, Float32Array.from([1, NaN, Infinity, 2]));
    const text = writeTrace(header(4, { profile: 'graph', seed: 7 }), steps);
    expect(text.split('\n')).toHaveLength(7); // header + 5 steps + final newline
    expect(text).toContain('"mean":"NaN"');
    const back = readTrace(text, 't.jsonl');
    expect(back.header).toMatchObject({ schema: 'tts-parity-trace/1', q: 4, profile: 'graph', seed: 7 });
    expect(back.steps).toEqual(steps);
    expect(writeTrace(back.header, back.steps)).toBe(text);
  });

  it('accepts a hand-written minimal trace with CRLF and blank lines', () => {
    const text = [
      '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000}',
      '',
      '{"step":1,"logits":{"mean":0.5,"std":1,"min":-2,"max":3,"argmax":7,"top5":[{"id":7,"logit":3}]},"codes":[7,1]}',
      '{"step":2,"logits":{"mean":0.4,"std":1,"min":-2,"max":3,"argmax":5,"top5":[]},"codes":[5,2]}',
    ].join('\r\n');
    expect(readTrace(text, 'hand.jsonl').steps.map((s) => s.codes)).toEqual([
      [7, 1],
      [5, 2],
    ]);
  });

  it.each(malformedTraces())('rejects %s with its line number', (_what, text, line, words) => {
    const e = failure(text);
    expect(e.line).toBe(line);
    expect(e.message.startsWith(`t.jsonl:${line}: `)).toBe(true);
    expect(e.message).toContain(words);
  });
});
