import type { SpectralRunner } from '../../common/analysis/compare.js';
import type { Sampling } from '../../common/api/primitives.js';
import { AUDIO_VERDICT_RULE, audioVerdict } from '../../common/endpoint/audio-verdict.js';
import { speechBody } from '../../common/endpoint/speech-body.js';
import { DEFAULT_TOLERANCES } from '../../common/forensics/tolerances.js';
import { EndpointError } from '../../common/errors.js';
import { compareTraces, type TraceSide } from '../../common/forensics/compare-traces.js';
import type { EndpointSpec } from '../../common/profile/endpoint-side.js';
import type { TraceComparisonReport } from '../../common/report/comparison-report.js';
import type { EndpointComparison, EndpointExchange } from '../../common/report/endpoint-exchange.js';
import type { AudioSource, ParityReport } from '../../common/report/report.js';
import { compareWavs } from '../../common/wav/compare-wavs.js';
import { downmixToMono, type Downmix } from '../../common/wav/downmix.js';
import { difference } from '../../engine/comparison/compare-profiles.js';
import { requestSpeech, type SpeechRequestOptions, type SpeechResult } from './speech-client.js';
import { pickUpTrace, traceFolderState, type TracePickup } from './trace-pickup.js';

export interface EndpointCompareRequest {
  text: string;
  a: EndpointSpec;
  b: EndpointSpec;
  seed: number;
  sampling: Sampling;
  maxLagMs?: number;
  /** The WAV pair's verdict tolerance per sample (default DEFAULT_TOLERANCES.audioAbs); trace pairs use the tolerances of compareTraces. */
  audioTol?: number;
}

export interface EndpointCompareOptions extends Omit<SpeechRequestOptions, 'label' | 'requestId'> {
  createdAt: string;
  spectral?: SpectralRunner;
  /** Said as each side starts and ends (the CLI's progress line). */
  onSide?: (side: 'A' | 'B', state: 'request' | 'done') => void;
}

export interface EndpointCompareResult {
  report: ParityReport | TraceComparisonReport;
  a: Float32Array;
  b: Float32Array;
  diff: Float32Array;
  /** Both traces, when the servers' recorders wrote them (the fixture stores copies). */
  traces?: { a: TraceFound; b: TraceFound };
}

export type TraceFound = Extract<TracePickup, { found: true }>;

interface SideRun extends SpeechResult {
  pickup?: TracePickup;
}

async function runSide(side: 'A' | 'B', spec: EndpointSpec, request: EndpointCompareRequest, o: EndpointCompareOptions): Promise<SideRun> {
  o.onSide?.(side, 'request');
  const before = spec.traces === undefined ? undefined : traceFolderState(spec.traces);
  const result = await requestSpeech(spec, speechBody(spec, request), { ...o, label: `endpoint ${side}` });
  const pickup = before === undefined ? undefined : await pickUpTrace(spec.traces!, before);
  // A streamed WAV has placeholder sizes by design (its length is not known when the header goes out):
  // the note stays in the exchange (response.warnings), not among the comparison's warnings.
  if (spec.stream !== 'off') result.decoded = { ...result.decoded, warnings: [] };
  o.onSide?.(side, 'done');
  if (pickup?.found) result.exchange.trace = { file: pickup.file, requestId: pickup.requestId };
  return { ...result, pickup };
}

function noTraceWhy(a: SideRun, b: SideRun): string {
  const why = (label: string, r: SideRun) => (r.pickup === undefined ? `${label} has no traces=DIR` : r.pickup.found ? undefined : `${label}: ${r.pickup.why}`);
  return [why('A', a), why('B', b)].filter(Boolean).join('; ');
}

/**
 * Two deployments, one prompt: the same text, seed and sampling sent to A and then to B (one at a time,
 * so neither's first-audio time includes the other's work). With both servers' traces found, the pair is
 * localised as any trace pair (compareTraces, the audio with it); otherwise it is a WAV pair, and the
 * report says why (`endpoints.comparedAs`, `endpoints.why`).
 */
export async function compareEndpoints(request: EndpointCompareRequest, options: EndpointCompareOptions): Promise<EndpointCompareResult> {
  const a = await runSide('A', request.a, request, options);
  const b = await runSide('B', request.b, request, options);
  const rateA = a.decoded.sampleRate;
  const rateB = b.decoded.sampleRate;
  if (rateA !== rateB) {
    throw new EndpointError(`endpoints A and B`, `the servers answered at two sample rates (A ${rateA} Hz, B ${rateB} Hz); parity does not resample (its error would read as a difference)`);
  }
  const exchanges = (comparedAs: EndpointComparison['comparedAs'], why?: string): EndpointComparison => ({
    a: a.exchange,
    b: b.exchange,
    comparedAs,
    ...(why ? { why } : {}),
  });
  const monoA = downmixToMono(a.decoded);
  const monoB = downmixToMono(b.decoded);
  if (a.pickup?.found && b.pickup?.found) {
    const side = (r: SideRun, pickup: TraceFound, mono: Downmix): TraceSide => ({
      file: pickup.file,
      trace: pickup.trace,
      audio: { signal: mono.signal, source: audioSource(r.exchange, r.decoded, mono.rule) },
    });
    const report = await compareTraces(side(a, a.pickup, monoA), side(b, b.pickup, monoB), { createdAt: options.createdAt, maxLagMs: request.maxLagMs, spectral: options.spectral });
    report.endpoints = exchanges('traces');
    return { report, a: monoA.signal, b: monoB.signal, diff: difference(monoA.signal, monoB.signal), traces: { a: a.pickup, b: b.pickup } };
  }
  const wavs = await compareWavs(
    { path: a.exchange.url, decoded: a.decoded },
    { path: b.exchange.url, decoded: b.decoded },
    { maxLagMs: request.maxLagMs, createdAt: options.createdAt, spectral: options.spectral },
  );
  const audioAbs = request.audioTol ?? DEFAULT_TOLERANCES.audioAbs;
  Object.assign(wavs.report, {
    verdict: audioVerdict(wavs.report.metrics, audioAbs),
    verdictRule: AUDIO_VERDICT_RULE,
    tolerances: { audioAbs },
    endpoints: exchanges('wav-pair', noTraceWhy(a, b)),
  });
  return { report: wavs.report, a: wavs.a, b: wavs.b, diff: wavs.diff };
}

function audioSource(exchange: EndpointExchange, decoded: SpeechResult['decoded'], downmix: string): AudioSource {
  return { path: exchange.url, sampleRate: decoded.sampleRate, channels: decoded.channels.length, format: decoded.format, downmix, ...(decoded.warnings.length ? { warnings: decoded.warnings } : {}) };
}
