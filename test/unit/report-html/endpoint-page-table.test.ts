import { describe, expect, it } from 'vitest';
import { reportPageData } from '../../../electron/common/report/html/report-page-data.js';
import type { EndpointComparison, EndpointExchange } from '../../../electron/common/report/endpoint-exchange.js';

const side = (url: string, over: Partial<EndpointExchange['response']>, trace?: EndpointExchange['trace']): EndpointExchange => ({
  endpoint: `endpoint=${url}`,
  url,
  request: { body: { input: 'Hi.', seed: 0, extra_params: { temperature: 0 } }, headers: ['content-type', 'accept', 'x-request-id'], requestId: `parity-${url.length}` },
  response: { status: 200, contentType: 'audio/wav', stream: 'off', format: 'pcm16', sampleRate: 24000, channels: 1, samples: 24000, durationS: 1, bytes: 48044, chunks: 1, firstByteMs: 410.4, firstAudioMs: 411.6, totalMs: 412.2, ...over },
  ...(trace ? { trace } : {}),
});

const A = 'http://127.0.0.1:8091/v1/audio/speech';
const B = 'http://127.0.0.1:8092/v1/audio/speech';

describe("report.html's endpoint section", () => {
  it('names both endpoints with what each server said it is, its answer and its times, side by side', () => {
    const endpoints: EndpointComparison = {
      a: side(A, { serverModel: '/models/tiny', serverVersion: '0.30.0' }),
      b: side(B, { stream: 'audio', chunks: 5, firstByteMs: 90, firstAudioMs: 180.2, totalMs: 640.7 }),
      comparedAs: 'wav-pair',
      why: 'A has no traces=DIR; B has no traces=DIR',
    };
    const table = reportPageData({ verdict: 'identical', endpoints }, '# Parity report\n', null).endpoints!;
    const row = (label: string) => table.rows.find((r) => r[0] === label)?.slice(1);
    expect(row('Endpoint')).toEqual([`endpoint=${A}`, `endpoint=${B}`]);
    expect(row('Server model')).toEqual(['/models/tiny', '(not given: GET /v1/models did not answer)']);
    expect(row('Server version')).toEqual(['0.30.0', '(not given: GET /version did not answer)']);
    expect(row('Read as')).toEqual(['one response', 'stream audio, 5 chunks']);
    expect(row('First audio')).toEqual(['412 ms', '180 ms']);
    expect(row('Total')).toEqual(['412 ms', '641 ms']);
    expect(row('Trace')).toEqual(['none', 'none']);
    expect(table.lines).toEqual([
      'sent to both: input "Hi.", seed 0, extra_params {"temperature":0}',
      'first audio B − A: −231 ms (B first)',
      'compared as a WAV pair, no step localisation (no traces: A has no traces=DIR; B has no traces=DIR); verdict identical (audio only)',
    ]);
  });

  it('a trace pair names each request\'s trace; any other report has no endpoint section', () => {
    const endpoints: EndpointComparison = {
      a: side(A, {}, { file: '/t/a/speech-1.jsonl', requestId: 'speech-1' }),
      b: side(B, {}, { file: '/t/b/speech-2.jsonl', requestId: 'speech-2' }),
      comparedAs: 'traces',
    };
    const divergence = { firstStep: null, stage: null, reconverges: false, steps: [], firstNonFinite: { a: null, b: null }, tolerances: { logitAbs: 1e-3, codes: 'exact', audioAbs: 1e-4 } };
    const table = reportPageData({ verdict: 'identical', endpoints, divergence } as never, '# x\n', 12.5).endpoints!;
    expect(table.rows.find((r) => r[0] === 'Trace')).toEqual(['Trace', '/t/a/speech-1.jsonl (request speech-1)', '/t/b/speech-2.jsonl (request speech-2)']);
    expect(table.lines.at(-1)).toBe("compared as a trace pair (both servers' recorders wrote this request's trace)");
    expect(reportPageData({ verdict: 'identical' }, '# x\n', null).endpoints).toBeNull();
  });
});
