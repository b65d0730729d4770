import type { FaultOutcome } from '../common/forensics/fault-outcomes.js';
import type { ExecutionProfile } from '../common/profile/types.js';
import type { SamplingParams } from '../common/sampling/types.js';
import type { StageCounts, StepRecord } from '../common/trace/step-record.js';
import type { FeedRecorder } from './drill/feed-tap.js';
import type { TokenizerInfo } from '../common/api/bundle-info.js';

export interface SynthesisRequest {
  text: string;
  profile: ExecutionProfile;
  /** Integer in [0, 2^53): keys the sampler's counter-based generator with (step, codebook). */
  seed: number;
  sampling: SamplingParams;
  /** Fills the prefill template's speaker slot (a name in bundle.json talker.prefill.speakers). */
  speaker?: string;
  /** Fills the prefill template's instruction slot (tokenized like the text). */
  instruction?: string;
}

export interface SynthesisProgress {
  stage: 'talker' | 'vocoder';
  step: number;
  totalSteps: number;
}

export interface SynthesisOptions {
  signal?: AbortSignal;
  onProgress?: (p: SynthesisProgress) => void;
  /** Called with each decoded piece of audio (one call for vocoder=full, one per chunk for stream). */
  onAudioChunk?: (samples: Float32Array, offset: number) => void;
  /** Drill-down: copy the feeds and outputs of one network's runs at one step (electron/engine/drill/). */
  recordFeeds?: FeedRecorder;
  /**
   * Teacher forcing: the teacher's codes, [frames, q] row-major (another run's SynthesisResult.codes).
   * The run feeds on them instead of its own picks; its step trace records its own picks (run/teacher-force.ts).
   */
  teacherCodes?: Int32Array;
}

export interface SynthesisTimings {
  totalMs: number;
  talkerPrefillMs: number;
  /** Per talker step (index 0 = step 1, the prefill), ms. */
  talkerStepMs: number[];
  /** Per frame, the code predictor's whole loop, ms. */
  codePredictorFrameMs: number[];
  vocoderMs: number;
  /** Sum of the time spent inside ORT session.run calls. */
  sessionRunMs: number;
  /** The part of sessionRunMs spent in the talker and code-predictor steps (the rest of a step's time is JS). */
  stepSessionRunMs?: number;
}

export interface SynthesisResult {
  audio: Float32Array;
  sampleRate: number;
  /** [frames, q] row-major. */
  codes: Int32Array;
  frames: number;
  q: number;
  steps: StepRecord[];
  /** A delay pattern's delays (bundle.json codebookDelays): steps hold the raw emission, `codes` the frames. */
  codebookDelays?: number[];
  timings: SynthesisTimings;
  /** Totals over all steps, per stage. */
  numerics: { nan: StageCounts; inf: StageCounts };
  executionProvider: 'cpu' | 'cuda';
  /** Set when another provider was asked for and refused: the real error text. */
  fallback?: string;
  /** batch=N only: the rows the batched exports ran with (N, or the graph bucket N was padded to). */
  batchRows?: number;
  /** The profile as run (canonical text). */
  profile: string;
  /** Each fault of the profile: applied, or not and why (a fault whose step never ran does nothing). */
  faults?: FaultOutcome[];
  seed: number;
  sampling: SamplingParams;
  bundleHash: string;
}

/** Manifest summary for the UI and `parity bundle check`. */
export interface BundleInfo {
  dir: string;
  name: string;
  description?: string;
  hash: string;
  sampleRate: number;
  frameRate: number;
  codebooks: number;
  codebookSize: number;
  framesPerChar: number;
  /** The text tokenizer (byte-level or a tokenizer.json) and the text limit it counts in. */
  tokenizer: TokenizerInfo;
  maxFrames: number;
  talker: { layers: number; heads: number; kvHeads: number; headDim: number; hidden: number; maxPositions: number; exports: string[] };
  /** Absent when the talker emits every codebook (talker.codebooks "all"). */
  codePredictor?: { layers: number; heads: number; kvHeads: number; headDim: number; hidden: number; maxPositions: number; exports: string[] };
  /** The text encoder (bundle.json `encoder`), when the bundle has one. */
  encoder?: { hidden: number; maxPositions: number; exports: string[] };
  vocoder: { leftContextFrames: number; chunkFrames: number; exports: string[] };
  /** One line per field beyond the demo's shape (embed.table, specialIds, codebookSizes, projection, prefill, conditioning). */
  layout: string[];
  /** Every model file with its declared inputs and outputs as checked against the session. */
  files: { label: string; file: string; inputs: string[]; outputs: string[] }[];
}
