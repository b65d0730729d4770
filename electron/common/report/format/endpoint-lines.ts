import type { EndpointComparison, EndpointExchange } from '../endpoint-exchange.js';

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

/** How the body was read: one response, or a stream and how many chunks (or SSE deltas) carried audio. */
export function readAs(r: EndpointExchange['response']): string {
  return r.stream === 'off' ? 'one response' : `stream ${r.stream}, ${r.chunks} chunk${r.chunks === 1 ? '' : 's'}`;
}

/** One side: what came back, how fast, and what the server said it is. */
export function endpointSideLine(label: string, x: EndpointExchange): string {
  const r = x.response;
  const stream = readAs(r);
  const server = [r.serverModel === undefined ? undefined : `model ${r.serverModel}`, r.serverVersion === undefined ? undefined : `version ${r.serverVersion}`].filter(Boolean).join(', ');
  return (
    `${label}: ${x.endpoint} → HTTP ${r.status} ${r.contentType}, ${r.format} ${r.channels} ch ${r.sampleRate} Hz, ${r.durationS.toFixed(3)} s (${r.samples} samples, ${r.bytes} bytes); ` +
    `first audio ${ms(r.firstAudioMs)}, total ${ms(r.totalMs)} (${stream})${server ? `; server: ${server}` : ''}${x.trace ? `; trace ${x.trace.file} (request ${x.trace.requestId})` : ''}`
  );
}

/** The endpoint lines of a summary or report.md: both sides, what both were sent, how they were compared. */
export function endpointLines(e: EndpointComparison, verdict?: string): string[] {
  const body = { ...e.a.request.body };
  const shared = ['input', 'seed', 'extra_params'].map((k) => `${k} ${JSON.stringify(body[k])}`).join(', ');
  const first = e.b.response.firstAudioMs - e.a.response.firstAudioMs;
  return [
    endpointSideLine('A', e.a),
    endpointSideLine('B', e.b),
    `sent to both: ${shared}`,
    `first audio B − A: ${first >= 0 ? '+' : '−'}${Math.abs(first).toFixed(0)} ms (${first < 0 ? 'B first' : first > 0 ? 'A first' : 'the same'})`,
    e.comparedAs === 'traces'
      ? "compared as a trace pair (both servers' recorders wrote this request's trace)"
      : `compared as a WAV pair, no step localisation (no traces: ${e.why ?? 'none found'})${verdict ? `; verdict ${verdict} (audio only)` : ''}`,
  ];
}
