import { z } from 'zod';
import { EndpointComparison } from './endpoint-exchange.js';
import { JsonNumber } from './json-number.js';
import { Metrics } from './metrics.js';

export const REPORT_SCHEMA = 'tts-parity-report/1';

/** How one side's audio was obtained: a WAV file (with its original layout) or a synthesis. */
export const AudioSource = z.object({
  path: z.string().optional(),
  sampleRate: z.number().int().positive(),
  channels: z.number().int().positive(),
  /** The WAV's sample format, e.g. "pcm16", "pcm24", "float32". */
  format: z.string().optional(),
  /** The rule that made the compared mono signal, e.g. "mean of 2 channels". */
  downmix: z.string(),
  /** Integrated loudness measured per BS.1770 over all channels (not after the downmix). */
  loudnessAllChannels: JsonNumber.optional(),
  /** Oddities tolerated while reading the file (e.g. a streamed WAV's placeholder sizes). */
  warnings: z.array(z.string()).optional(),
});
export type AudioSource = z.infer<typeof AudioSource>;

/** Short-term loudness curves (3 s windows, 100 ms hop) for plotting; -Infinity where silent. */
export const LoudnessCurves = z.object({
  hopMs: z.number().positive(),
  windowMs: z.number().positive(),
  shortTermA: z.array(JsonNumber),
  shortTermB: z.array(JsonNumber),
});
export type LoudnessCurves = z.infer<typeof LoudnessCurves>;

/**
 * `degenerate-audio`: nothing diverged, but a take is digital silence, a constant, non-finite or
 * near-silent (audio-check.ts), so the audio was not compared and the comparison is no match.
 */
export const Verdict = z.enum(['identical', 'within-tolerance', 'diverged', 'degenerate-audio']);
export type Verdict = z.infer<typeof Verdict>;

export const ParityReport = z
  .object({
    schema: z.literal(REPORT_SCHEMA),
    createdAt: z.string(),
    tool: z.object({ name: z.string(), version: z.string() }),
    sources: z.object({ a: AudioSource, b: AudioSource }),
    metrics: Metrics,
    curves: LoudnessCurves.optional(),
    verdict: Verdict.optional(),
    /** Two speech endpoints compared as a WAV pair: what was sent and what came back (endpoint-exchange.ts). */
    endpoints: EndpointComparison.optional(),
  })
  .loose();
export type ParityReport = z.infer<typeof ParityReport>;
