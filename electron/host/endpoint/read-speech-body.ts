import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { EndpointError } from '../../common/errors.js';
import { oneLine, networkReason } from './endpoint-failure.js';
import { wavHeaderLength } from './speech-audio.js';

/** Largest audio body read (about 90 minutes of 24 kHz float32 mono): past it the request is refused, not held. */
export const MAX_SPEECH_BYTES = 512 * 1024 * 1024;

export interface SpeechBody {
  bytes: Uint8Array;
  chunks: number;
  firstByteMs: number;
  /** Undefined when no sample was seen (a body that is not the WAV it claims: the decoder says why). */
  firstAudioMs?: number;
  usage?: Record<string, unknown>;
}

/** Collects audio bytes as they arrive and notes when the first sample came (past a WAV header). */
class AudioCollector {
  private readonly parts: Uint8Array[] = [];
  private length = 0;
  chunks = 0;
  firstAudioMs: number | undefined;

  constructor(
    private readonly format: 'wav' | 'pcm',
    private readonly since: number,
    private readonly where: string,
  ) {}

  add(part: Uint8Array): void {
    if (part.length === 0) return;
    this.length += part.length;
    if (this.length > MAX_SPEECH_BYTES) throw new EndpointError(this.where, `the audio is larger than ${MAX_SPEECH_BYTES / 2 ** 20} MiB; refused`);
    this.parts.push(part);
    this.chunks++;
    if (this.firstAudioMs === undefined) {
      const header = this.format === 'wav' ? wavHeaderLength(this.joined()) : 0;
      if (header !== undefined && this.length > header) this.firstAudioMs = performance.now() - this.since;
    }
  }

  joined(): Uint8Array {
    if (this.parts.length === 1) return this.parts[0];
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    this.parts.splice(0, this.parts.length, out);
    return out;
  }

  get size(): number {
    return this.length;
  }
}

/**
 * Reads a speech response's body as it arrives: raw audio bytes (one response or a chunked stream), or SSE
 * `speech.audio.delta` events (base64 `audio`, vLLM-Omni's and OpenAI's names) until `speech.audio.done`.
 * A connection that drops, an SSE `speech.audio.error`, or an SSE stream that ends without its done event is
 * an EndpointError: the audio may be cut short, so nothing is returned.
 */
export async function readSpeechBody(response: Response, mode: 'off' | 'sse' | 'audio', format: 'wav' | 'pcm', since: number, where: string): Promise<SpeechBody> {
  const audio = new AudioCollector(format, since, where);
  let firstByteMs: number | undefined;
  let done = mode !== 'sse';
  let usage: Record<string, unknown> | undefined;
  let events = 0;
  const parser = createParser({
    onEvent: (message: EventSourceMessage) => {
      events++;
      const payload = parseEvent(message, where);
      const type = message.event ?? payload.type;
      if (type === 'speech.audio.delta') {
        if (typeof payload.audio !== 'string') throw new EndpointError(where, `SSE event ${events} (speech.audio.delta) has no base64 "audio" field`);
        audio.add(Buffer.from(payload.audio, 'base64'));
      } else if (type === 'speech.audio.done') {
        done = true;
        if (typeof payload.usage === 'object' && payload.usage !== null) usage = payload.usage as Record<string, unknown>;
      } else if (type === 'speech.audio.error' || type === 'error') {
        const error = payload.error as { message?: unknown } | undefined;
        throw new EndpointError(where, `the server reported an error mid-stream (SSE ${type}, after ${audio.size} audio bytes): ${oneLine(String(error?.message ?? message.data))}`);
      }
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        if ((error as Error).name === 'AbortError') throw error;
        throw new EndpointError(where, `the connection dropped mid-response after ${audio.size} audio bytes (${networkReason(error)}); nothing was written`);
      }
      if (next.done) break;
      firstByteMs ??= performance.now() - since;
      if (mode === 'sse') parser.feed(decoder.decode(next.value, { stream: true }));
      else audio.add(next.value);
    }
  } catch (error) {
    // Stop the transfer: a refused or failed response is not read to its end.
    await reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    reader.releaseLock();
  }
  if (mode === 'sse') {
    parser.feed(decoder.decode());
    if (!done) throw new EndpointError(where, `the SSE stream ended without speech.audio.done after ${events} events and ${audio.size} audio bytes (cut short?); nothing was written`);
  }
  if (audio.size === 0) throw new EndpointError(where, `the response held no audio (0 bytes${mode === 'sse' ? `, ${events} SSE events` : ''})`);
  return { bytes: audio.joined(), chunks: audio.chunks, firstByteMs: firstByteMs!, ...(audio.firstAudioMs === undefined ? {} : { firstAudioMs: audio.firstAudioMs }), ...(usage ? { usage } : {}) };
}

function parseEvent(message: EventSourceMessage, where: string): Record<string, unknown> {
  try {
    const value = JSON.parse(message.data) as unknown;
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new EndpointError(where, `SSE event "${message.event ?? 'message'}" is not a JSON object: ${oneLine(message.data, 120)}`);
}
