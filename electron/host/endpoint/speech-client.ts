import { randomUUID } from 'node:crypto';
import { refusedHost } from '../../common/endpoint/host-policy.js';
import type { SpeechBody } from '../../common/endpoint/speech-body.js';
import { CancelledError, EndpointError, WavError } from '../../common/errors.js';
import { SPEECH_PATH, type EndpointSpec } from '../../common/profile/endpoint-side.js';
import type { EndpointExchange } from '../../common/report/endpoint-exchange.js';
import type { DecodedWav } from '../../common/wav/decode-wav.js';
import { networkReason, serverMessage } from './endpoint-failure.js';
import { readSpeechBody } from './read-speech-body.js';
import { serverInfo } from './server-info.js';
import { decodeSpeechAudio } from './speech-audio.js';

export interface SpeechRequestOptions {
  /** Hosts besides loopback the user allowed (`--allow-host`). */
  allowHosts: readonly string[];
  /** Where key-env is looked up (process.env in the CLI). */
  env: Readonly<Record<string, string | undefined>>;
  /** Cancel: aborts the request and the transfer. */
  signal?: AbortSignal;
  /** Sent as X-Request-Id; a fresh id when absent. */
  requestId?: string;
  /** Names the side in errors, e.g. "endpoint A". */
  label?: string;
}

export interface SpeechResult {
  decoded: DecodedWav;
  exchange: EndpointExchange;
}

const AUDIO_TYPES: Record<'wav' | 'pcm', readonly string[]> = {
  wav: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave', 'application/octet-stream'],
  pcm: ['audio/pcm', 'audio/l16', 'audio/raw', 'application/octet-stream'],
};

/**
 * One `POST /v1/audio/speech` to a side: the host checked (loopback or allowed), an API key from the
 * environment sent and never recorded, the body read as it arrives (streaming: SSE or raw chunks) with
 * the first-audio time, the audio decoded by the project's WAV reader. Every failure is one
 * EndpointError line naming the endpoint; a cancel is a CancelledError.
 */
export async function requestSpeech(spec: EndpointSpec, body: SpeechBody, options: SpeechRequestOptions): Promise<SpeechResult> {
  const where = `${options.label ? `${options.label} ` : ''}${spec.url}`;
  const refused = refusedHost(spec.url, options.allowHosts);
  if (refused) throw new EndpointError(where, refused);
  const requestId = options.requestId ?? `parity-${randomUUID()}`;
  const auth: Record<string, string> = {};
  if (spec.keyEnv !== undefined) {
    const key = options.env[spec.keyEnv];
    if (key === undefined || key === '') throw new EndpointError(where, `key-env=${spec.keyEnv}: that environment variable is not set (it holds the API key)`);
    auth.authorization = `Bearer ${key}`;
  }
  const stream = spec.stream;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: stream === 'sse' ? 'text/event-stream' : spec.format === 'wav' ? 'audio/wav' : 'audio/pcm',
    'x-request-id': requestId,
    ...auth,
  };
  const timeout = AbortSignal.timeout(spec.timeoutS * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const aborted = (error: unknown): Error => {
    if (options.signal?.aborted) return new CancelledError(`cancelled: the request to ${where} was stopped`);
    if (timeout.aborted) return new EndpointError(where, `timed out after ${spec.timeoutS} s (timeout=${spec.timeoutS}; raise it for long prompts or a cold server)`);
    return error as Error;
  };
  // Asked first: it loads Node's fetch (undici, ~200 ms on first use) and opens the connection, so
  // neither is counted in the first-audio time of whichever side goes first.
  const info = await serverInfo(spec.url.slice(0, -SPEECH_PATH.length), auth, spec.model);
  const t0 = performance.now();
  let response: Response;
  try {
    response = await fetch(spec.url, { method: 'POST', headers, body: JSON.stringify(body), signal });
  } catch (error) {
    if (signal.aborted) throw aborted(error);
    throw new EndpointError(where, `cannot connect: ${networkReason(error)}`);
  }
  try {
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      throw new EndpointError(where, `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}: ${serverMessage(text)}`);
    }
    const expected = stream === 'sse' ? ['text/event-stream'] : AUDIO_TYPES[spec.format];
    if (!expected.includes(contentType)) {
      const text = contentType.startsWith('text/') || contentType.includes('json') ? `: ${serverMessage(await response.text().catch(() => ''))}` : '';
      await response.body?.cancel().catch(() => undefined);
      throw new EndpointError(where, `the response is not ${stream === 'sse' ? 'an SSE stream' : `${spec.format} audio`} (content-type "${contentType || 'none'}", expected ${expected.join(' or ')})${text}`);
    }
    const read = await readSpeechBody(response, stream, spec.format, t0, where);
    const totalMs = performance.now() - t0;
    let decoded: DecodedWav;
    try {
      decoded = decodeSpeechAudio(read.bytes, spec.format, spec.rate, where);
    } catch (error) {
      if (error instanceof WavError) throw new EndpointError(where, `the response is not ${spec.format === 'wav' ? 'a WAV' : '16-bit PCM'} parity reads: ${error.message.slice(where.length + 2)}`);
      throw error;
    }
    const samples = decoded.channels[0]?.length ?? 0;
    if (samples === 0) throw new EndpointError(where, `the response held no audio samples (a ${decoded.format} ${spec.format === 'wav' ? 'WAV' : 'stream'} of ${read.bytes.length} bytes)`);
    const usage = read.usage ?? usageHeaders(response.headers);
    const echoed = response.headers.get('x-request-id');
    const exchange: EndpointExchange = {
      endpoint: spec.text,
      url: spec.url,
      request: { body, headers: Object.keys(headers), requestId },
      response: {
        status: response.status,
        contentType,
        stream,
        format: decoded.format,
        sampleRate: decoded.sampleRate,
        channels: decoded.channels.length,
        samples,
        durationS: samples / decoded.sampleRate,
        bytes: read.bytes.length,
        chunks: read.chunks,
        firstByteMs: read.firstByteMs,
        firstAudioMs: read.firstAudioMs ?? totalMs,
        totalMs,
        ...(info.model === undefined ? {} : { serverModel: info.model }),
        ...(info.version === undefined ? {} : { serverVersion: info.version }),
        ...(echoed === null ? {} : { echoedRequestId: echoed }),
        ...(usage === undefined ? {} : { usage }),
        ...(decoded.warnings.length ? { warnings: decoded.warnings } : {}),
      },
    };
    return { decoded, exchange };
  } catch (error) {
    if (signal.aborted) throw aborted(error);
    throw error;
  }
}

/** vLLM-Omni's non-streaming usage headers (X-VLLM-OMNI-*-TOKENS), as given. */
function usageHeaders(headers: Headers): Record<string, unknown> | undefined {
  const usage: Record<string, unknown> = {};
  headers.forEach((value, name) => {
    if (name.startsWith('x-vllm-omni-') && name.endsWith('-tokens')) usage[name] = value;
  });
  return Object.keys(usage).length ? usage : undefined;
}
