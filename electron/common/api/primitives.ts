import { z } from 'zod';
import { checkSide } from '../profile/check-side.js';

/** Typed arrays of any backing buffer (a worker or a socket may hand over a shared or sliced one). */
export const Float32Samples = z.custom<Float32Array>((v) => v instanceof Float32Array, 'expected a Float32Array');
export const Int32Values = z.custom<Int32Array>((v) => v instanceof Int32Array, 'expected an Int32Array');
export const Bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'expected a Uint8Array');

/** Mono audio as it crosses the API: float32 samples, one channel. */
export const Audio = z.object({
  sampleRate: z.number().int().positive(),
  samples: Float32Samples,
});
export type Audio = z.infer<typeof Audio>;

/** Bytes of a file (a WAV) sent by a renderer that cannot name a path, e.g. a browser. */
export const FileBytes = z.object({
  name: z.string().min(1).max(500),
  bytes: Bytes,
});
export type FileBytes = z.infer<typeof FileBytes>;

/** A path on the host machine (Electron dialogs, CLI) or bytes (browser). */
export const FileInput = z.union([z.object({ path: z.string().min(1).max(4096) }), FileBytes]);
export type FileInput = z.infer<typeof FileInput>;

/**
 * A file browser mode's server received by a streamed upload (POST /upload, docs/studio.md) and named by
 * the id it answered: the files of an import (WAVs, traces, sidecars) travel so instead of inside one
 * WebSocket message, which is bounded (MAX_MESSAGE_BYTES). Only that server can resolve it; the host
 * refuses one that reaches it unresolved.
 */
export const UploadRef = z.object({ upload: z.string().regex(/^up-[A-Za-z0-9_-]{16,64}$/, 'expected an upload id like "up-…" (what POST /upload answered)') });
export type UploadRef = z.infer<typeof UploadRef>;

/** A file of an import (a WAV, a module sidecar): as a file input, or uploaded to browser mode's server beforehand. */
export const ImportFile = z.union([
  // name: what reports and the history call the file (browser mode's server gives an upload's own file
  // name here, the path being its private copy); the path when absent.
  z.object({ path: z.string().min(1).max(4096), name: z.string().min(1).max(500).optional() }),
  FileBytes,
  UploadRef,
]);
export type ImportFile = z.infer<typeof ImportFile>;

export const JobId = z.string().regex(/^job-[0-9a-z-]{1,64}$/, 'expected a job id like "job-3"');
export const HistoryId = z.string().regex(/^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$/, 'expected a history id like "20250101-120000-1a2b3c"');

/**
 * A profile string such as `graph,vocoder=stream` (or an endpoint side, `endpoint=URL,…`), checked with the same parser as the engine so a bad
 * string is refused at the boundary with the parser's message (e.g. unknown key "vocodr").
 */
export const ProfileText = z
  .string()
  .max(300)
  .superRefine((text, ctx) => {
    const check = checkSide(text);
    if (!check.ok) ctx.addIssue({ code: 'custom', message: `profile "${text}": ${check.issue.message}` });
  });

export const Sampling = z.object({
  mode: z.enum(['greedy', 'sample']).default('greedy'),
  temperature: z.number().positive().max(10).default(1),
  topK: z.number().int().nonnegative().default(0),
  topP: z.number().gt(0).max(1).default(1),
  repetitionPenalty: z.number().positive().max(10).default(1),
});
export type Sampling = z.infer<typeof Sampling>;

export const PromptText = z.string().trim().min(1, 'the prompt is empty').max(2000, 'the prompt is longer than 2000 characters');
export const Seed = z.number().int().nonnegative().max(2 ** 32 - 1);
