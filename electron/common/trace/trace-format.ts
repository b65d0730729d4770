import { z } from 'zod';
import type { TraceStep } from './step-record.js';

/**
 * `tts-parity-trace/1`: JSON Lines. Line 1 is the header, then one TraceStep per line, steps 1, 2, 3…
 * in order (1 = the prefill that yields frame 1). Non-finite numbers are the strings "NaN",
 * "Infinity", "-Infinity". Documented in docs/trace-format.md.
 */
export const TRACE_SCHEMA = 'tts-parity-trace/1';

export const VocoderChunk = z
  .object({
    startSample: z.number().int().nonnegative(),
    samples: z.number().int().nonnegative(),
    leftContextFrames: z.number().int().nonnegative().optional(),
  })
  .strict();
export type VocoderChunk = z.infer<typeof VocoderChunk>;

export const TraceHeader = z
  .object({
    schema: z.literal(TRACE_SCHEMA),
    /** Free text naming the engine and build, e.g. "vllm 0.11 cuda-graph" or "tts-parity-studio 0.1.0". */
    engine: z.string().min(1).max(500),
    /** Codebooks per frame: every step's `codes` has exactly q entries. */
    q: z.number().int().positive().max(64),
    /**
     * Codebook size: one number for every codebook, or q numbers, one per codebook (optional). Where it
     * is given, readTrace refuses a code outside 0…size−1.
     */
    codebookSize: z.union([z.number().int().positive(), z.array(z.number().int().positive()).min(1).max(64)]).optional(),
    /** Frames (= steps) per second of audio. */
    frameRate: z.number().positive(),
    sampleRate: z.number().int().positive(),
    /** The profile or configuration that produced the trace (free text for foreign engines). */
    profile: z.string().max(500).optional(),
    seed: z.number().int().nonnegative().optional(),
    text: z.string().optional(),
    /**
     * A module-output sidecar (`*.modules.safetensors`), as a file name relative to the trace's folder:
     * the tensors the drill-down compares inside a step (docs/python.md).
     */
    modules: z.string().min(1).max(500).optional(),
    /**
     * The run was teacher-forced: it fed on another run's codes (named here, e.g. "A: graph") instead of
     * its own picks, and each step's `codes` are its own picks, not the codes it fed on or vocoded.
     * compare-trace then reports the drift and would-flips (docs/forensics.md "Teacher forcing").
     */
    teacherForced: z.string().min(1).max(500).optional(),
    /**
     * A delay pattern (MusicGen, Dia): codebook k of frame f is emitted at step f + codebookDelays[k], and each
     * step's `codes` are what that step emitted. q integers ≥ 0; absent = no delays (step N is frame N).
     * compare-trace then reports the first divergent frame and its time (delay-pattern.ts, docs/trace-format.md).
     */
    codebookDelays: z.array(z.number().int().nonnegative().max(100000)).min(1).max(64).optional(),
    /**
     * The chunks the vocoder made the audio in, in order, as the vocoder stage produced them (a streamed
     * vocoder such as vLLM-Omni's async_chunk Code2Wav; a whole decode is one chunk): each chunk's first sample
     * (0-based, in the run's audio), its length in samples, and, where the engine said, the frames of earlier
     * codes it decoded again as left context and trimmed. Each chunk starts where the one before ends (readTrace
     * refuses a gap or an overlap). compare-trace then says which chunks the audio differs in and where that is
     * from the seams between them (vocoder-chunks.ts, docs/trace-format.md).
     */
    vocoderChunks: z.array(VocoderChunk).min(1).max(100000).optional(),
  })
  .loose();
export type TraceHeader = z.infer<typeof TraceHeader>;

export interface Trace {
  header: TraceHeader;
  /** Partial where the writer logged only some fields (TraceStep); our engine's steps are full StepRecords. */
  steps: TraceStep[];
}
