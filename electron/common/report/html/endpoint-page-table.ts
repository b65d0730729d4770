import type { EndpointComparison, EndpointExchange } from '../endpoint-exchange.js';
import { endpointLines, readAs } from '../format/endpoint-lines.js';

/** An endpoint comparison as report.html shows it: one row per fact, A and B side by side, then report.md's shared lines. */
export interface EndpointPageTable {
  /** [label, A, B]. */
  rows: [string, string, string][];
  /** What both were sent, the first-audio difference, how the pair was compared (report.md's words). */
  lines: string[];
}

const ms = (v: number) => `${v.toFixed(0)} ms`;

const FACTS: [string, (x: EndpointExchange) => string][] = [
  ['Endpoint', (x) => x.endpoint],
  ['Server model', (x) => x.response.serverModel ?? '(not given: GET /v1/models did not answer)'],
  ['Server version', (x) => x.response.serverVersion ?? '(not given: GET /version did not answer)'],
  ['Answer', (x) => `HTTP ${x.response.status} ${x.response.contentType}`],
  ['Read as', (x) => readAs(x.response)],
  ['Audio', (x) => `${x.response.format} ${x.response.channels} ch ${x.response.sampleRate} Hz, ${x.response.durationS.toFixed(3)} s (${x.response.samples} samples)`],
  ['First byte', (x) => ms(x.response.firstByteMs)],
  ['First audio', (x) => ms(x.response.firstAudioMs)],
  ['Total', (x) => ms(x.response.totalMs)],
  ['Request id sent', (x) => x.request.requestId],
  ['Trace', (x) => (x.trace ? `${x.trace.file} (request ${x.trace.requestId})` : 'none')],
];

export function endpointPageTable(e: EndpointComparison, verdict?: string): EndpointPageTable {
  return { rows: FACTS.map(([label, fact]) => [label, fact(e.a), fact(e.b)]), lines: endpointLines(e, verdict).slice(2) };
}
