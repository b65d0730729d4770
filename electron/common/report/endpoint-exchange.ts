import { z } from 'zod';

/**
 * What was sent to one speech endpoint and what came back (docs/deployments.md, "What the report says"):
 * the request body exactly as sent, the names of the headers sent (an API key's value never appears),
 * and the response as read — status, format, rate, length, timings, and what the server said about itself.
 */
export const EndpointExchange = z.object({
  /** The side as given, in canonical form (key-env names the variable, never its value). */
  endpoint: z.string(),
  url: z.string(),
  request: z.object({
    body: z.record(z.string(), z.unknown()),
    /** Header names sent; `authorization` when key-env gave a key (its value is not recorded). */
    headers: z.array(z.string()),
    /** The id sent as X-Request-Id (the recorder's trace names use the engine's own id: `traces`). */
    requestId: z.string(),
  }),
  response: z.object({
    status: z.number().int(),
    contentType: z.string(),
    /** How the body was read: one response, SSE `speech.audio.delta` events, or raw audio chunks. */
    stream: z.enum(['off', 'sse', 'audio']),
    /** The audio as decoded: WAV sample format (pcm16, float32, …) and layout. */
    format: z.string(),
    sampleRate: z.number().int().positive(),
    channels: z.number().int().positive(),
    samples: z.number().int().nonnegative(),
    durationS: z.number().nonnegative(),
    /** Audio bytes received (after base64 decoding for SSE). */
    bytes: z.number().int().nonnegative(),
    /** Body chunks (raw streams) or audio events (SSE) that carried audio. */
    chunks: z.number().int().nonnegative(),
    /** ms from sending the request to the first byte of the response body. */
    firstByteMs: z.number().nonnegative(),
    /** ms from sending the request to the first audio sample (past a WAV header, or the first non-empty SSE delta). */
    firstAudioMs: z.number().nonnegative(),
    totalMs: z.number().nonnegative(),
    /** The served model as the server lists it (GET /v1/models), when it answers. */
    serverModel: z.string().optional(),
    /** The server's version (GET /version), when it answers. */
    serverVersion: z.string().optional(),
    /** X-Request-Id as the server echoed it, when it did. */
    echoedRequestId: z.string().optional(),
    /** Usage the server reported (headers or the SSE done event), as given. */
    usage: z.record(z.string(), z.unknown()).optional(),
    /** Oddities tolerated while decoding (e.g. a streamed WAV's placeholder sizes). */
    warnings: z.array(z.string()).optional(),
  }),
  /** The trace the server's recorder wrote for this request, when one was found (traces=DIR). */
  trace: z.object({ file: z.string(), requestId: z.string() }).optional(),
});
export type EndpointExchange = z.infer<typeof EndpointExchange>;

/** Both sides of an endpoint comparison, and whether it was localised over traces or compared as a WAV pair. */
export const EndpointComparison = z.object({
  a: EndpointExchange,
  b: EndpointExchange,
  /** `traces`: both requests' traces were found and localised; `wav-pair`: audio only, `why` says why there were no traces. */
  comparedAs: z.enum(['traces', 'wav-pair']),
  why: z.string().optional(),
});
export type EndpointComparison = z.infer<typeof EndpointComparison>;
