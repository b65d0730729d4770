import { describe, expect, it } from 'vitest';
import { ParityError } from '../../../../electron/common/errors.js';
import { readTrace } from '../../../../electron/common/trace/read-trace.js';
import { TraceError } from '../../../../electron/common/trace/trace-error.js';
import { writeTrace } from '../../../../electron/common/trace/write-trace.js';
import { logitStats } from '../../../../electron/common/trace/logit-stats.js';
import { header, logitRow, makeStep, makeSteps } from '../forensics/synthetic-trace.js';
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

  it('round-trips the optional header "modules", per-step "hidden" and a q−1 entry "codePredictorLogits"', () => {
    const steps = makeSteps(2, 4).map((s) => ({
      ...s,
      codePredictorLogits: [1, 2, 3].map((c) => logitStats(logitRow(s.step, c))),
      hidden: { mean: 0.25, std: NaN, min: -Infinity, max: 3, nan: 1, inf: 2 },
    }));
    const text = writeTrace(header(4, { modules: 'a.modules.safetensors' }), steps);
    expect(text).toContain('"std":"NaN","min":"-Infinity"');
    const back = readTrace(text, 't.jsonl');
    expect(back.header.modules).toBe('a.modules.safetensors');
    expect(back.steps).toEqual(steps);
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

  it('accepts partial steps: any one of a logit statistic, the codes or the code-predictor list', () => {
    const text = [
      '{"schema":"tts-parity-trace/1","engine":"hand","q":2,"frameRate":12.5,"sampleRate":24000,"codebookSize":[2048,16]}',
      '{"step":1,"logits":{"mean":13.43}}',
      '{"step":2,"codes":[2047,15]}',
      '{"step":3,"codePredictorLogits":[{"max":"Infinity"}]}',
      '{"step":4,"logits":{"argmax":7,"top5":[{"id":7,"logit":3}]},"codes":[7,0]}',
    ].join('\n');
    const trace = readTrace(text, 'partial.jsonl');
    expect(trace.header.codebookSize).toEqual([2048, 16]);
    expect(trace.steps).toEqual([
      { step: 1, logits: { mean: 13.43 } },
      { step: 2, codes: [2047, 15] },
      { step: 3, codePredictorLogits: [{ max: Infinity }] },
      { step: 4, logits: { argmax: 7, top5: [{ id: 7, logit: 3 }] }, codes: [7, 0] },
    ]);
    // Per codebook: 16 is outside codebook 1's size 16, though inside codebook 0's 2048.
    expect(failure(text.replace('[2047,15]', '[2047,16]')).message).toBe(
      't.jsonl:3: step 2: "codes.1": 16 is outside codebook 1 (codebookSize 16 in the header: codes 0…15)',
    );
  });

  it('names a WAV given as a trace (as the studio reads it: bytes decoded as UTF-8), with the caller\'s hint if any', () => {
    // RIFF, a 4-byte size that is not UTF-8 (each byte becomes U+FFFD) or is ASCII, then WAVE.
    const bytes = (size: number[]) => new TextDecoder().decode(Uint8Array.from([...Buffer.from('RIFF'), ...size, ...Buffer.from('WAVEfmt '), 0x10, 0, 0, 0]));
    for (const size of [[0x32, 0xe1, 0x00, 0x00], [0xff, 0xff, 0xff, 0x7f], [0x24, 0x20, 0x20, 0x20]]) {
      expect(() => readTrace(bytes(size), 'a.wav')).toThrow(new ParityError('trace', 'a.wav is a WAV file, not a tts-parity-trace/1 trace', 'a.wav'));
    }
    expect(() => readTrace(bytes([0x32, 0xe1, 0, 0]), 'a.wav', { wavHint: 'give WAVs with --wav-a/--wav-b' })).toThrow(
      'a.wav is a WAV file, not a tts-parity-trace/1 trace (give WAVs with --wav-a/--wav-b)',
    );
  });

  it('refuses binary content by line and column without echoing it; escapes bytes that were not UTF-8', () => {
    const good = writeTrace(header(4), makeSteps(2, 4));
    const binary = failure(good + '\u0000\u0001garbage\n');
    expect(binary.message).toBe('t.jsonl:4: not a text file: control character U+0000 at column 1 (a tts-parity-trace/1 trace is UTF-8 JSON Lines, docs/trace-format.md)');
    // JSON.parse quotes the start of a bad line: its U+FFFD (a byte that was not UTF-8) is written as an escape.
    const notJson = failure('\ufffd\ufffdPK zip\n');
    expect(notJson.message).toMatch(/^t\.jsonl:1: not valid JSON \(.*\\ufffd/);
    expect(notJson.message).not.toContain('\ufffd');
    // DEL and C1 controls may stand raw in a JSON string: not taken for binary.
    const text = writeTrace({ ...header(4), text: 'a\u007fb\u0085c' }, makeSteps(2, 4));
    expect(readTrace(text, 't.jsonl').header.text).toBe('a\u007fb\u0085c');
  });

  it.each(malformedTraces())('rejects %s with its line number', (_what, text, line, words) => {
    const e = failure(text);
    expect(e.line).toBe(line);
    expect(e.message.startsWith(`t.jsonl:${line}: `)).toBe(true);
    expect(e.message).toContain(words);
  });
});
