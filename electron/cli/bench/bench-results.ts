import type { CompareTraceMemoryBench } from './compare-trace-memory.js';
import type { PeerBench } from './peer-bench.js';
import type { ReportBench } from './report-bench.js';
import type { SweepBench } from './sweep-bench.js';
import type { WavImportMemoryPoint } from './wav-import-memory.js';

/**
 * The JSON that `parity bench` writes (bench/results.json): machine, engine timings per execution
 * profile, their ratios (all from one interleaved run), memory over repeated syntheses, and analysis.
 */
export interface MachineInfo {
  cpus: number;
  cpuModel: string;
  node: string;
  platform: string;
  /** Version of the installed onnxruntime-node package; null when it is not installed. */
  onnxruntime: string | null;
}

export interface AnalysisBench {
  /**
   * compareSignals on two 60 s 24 kHz signals, the spectral distances on a warm worker thread (as the CLI
   * and the studio run it): median wall time, ms. Target ≤ 150 ms.
   */
  pair60sMs: number;
  /** Its median CPU time (this process, all threads, user + system), ms: less sensitive to a busy machine. */
  pair60sCpuMs: number;
  /** The same compare on one thread (no worker), timed in turn with the above: median wall and CPU, ms. */
  pair60sSingleThreadMs?: number;
  pair60sSingleThreadCpuMs?: number;
  /** pair60sSingleThreadMs / pair60sMs: the worker's speed-up in this run. */
  pair60sWorkerSpeedup?: number;
  /** How many timed runs the pair's medians are taken over: `runs`, at least 15. */
  pair60sRuns?: number;
  /** Integrated + short-term loudness of 10 min mono 24 kHz (one K-weighting pass): median, ms. */
  loudness600sMs: number;
  loudness600sCpuMs: number;
  /** `ffmpeg -af ebur128 -f null -` on the same 10 min signal: median wall time, ms; null without ffmpeg. */
  ffmpegEbur128600sMs: number | null;
  /** The reference implementations on the same signals in the same run, with ratios (peer-bench.ts). */
  peers?: PeerBench;
  /** How many timed runs each median is taken over (after one warm-up run; the pair's: pair60sRuns). */
  runs: number;
}

export interface Spread {
  median: number;
  p90: number;
}

/** One execution profile on the demo bundle, a 40-character prompt, greedy; medians over the repetitions. */
export interface ProfileBench {
  /** Talker step 1 (the text prefill), ms. */
  talkerPrefillMs: number;
  /** Talker decode steps (step ≥ 2), pooled over the repetitions, ms; includes the step's JS (feedback, stats, sampling). */
  talkerStepMs: Spread;
  /** The code predictor's whole loop for one frame (Q − 1 codes), ms. */
  codePredictorFrameMs: Spread;
  /** Vocoder wall time per second of audio, ms/s. */
  vocoderMsPerAudioSecond: number;
  /** Real-time factor: whole synthesis wall time / audio duration. */
  rtf: number;
  /** From the synthesize call to the first onAudioChunk, ms. */
  firstAudioMs: number;
  /** Share of talker + code-predictor step time spent outside session.run (feeds, sampling, copies). */
  jsOverheadShare: number;
  /** Audio frames per synthesis (the prompt's length in frames). */
  frames: number;
}

export interface EngineRatios {
  /** eager talker decode-step median / graph's (> 1: graph faster). */
  graphVsEagerTalkerStep: number;
  /** eager code-predictor frame median / graph's. */
  graphVsEagerCodePredictorFrame: number;
  /** graph,cache=recompute talker decode-step median / graph's (kv cache reuse vs re-running the sequence). */
  kvVsRecomputeStep: number;
}

export interface MemoryBench {
  /** heapUsed after the last of `syntheses` runs minus after the first, each measured after a full GC, MB. */
  heapGrowthMbOver20: number;
  /** Largest resident set size seen during the memory runs, MB. */
  rssPeakMb: number;
  syntheses: number;
  profile: string;
  /** Whether a full GC ran before each heap reading (false: the growth figure includes garbage). */
  gc: boolean;
}

export interface EngineBenchMeta {
  text: string;
  /** Timed synthesis rounds; each round runs every profile once, order rotated. */
  repetitions: number;
  warmupRounds: number;
  bundleHash: string;
}

/**
 * Opening a bundle with a 151 936 × 1024 float16 embedding table file (embed.table, read by rows), each
 * bundle in a fresh child process, RSS read after a full GC; the same bundle with a 262-row table gives
 * the ONNX sessions' own growth.
 */
export interface LazyTableBench {
  textRows: number;
  hidden: number;
  /** Size of the large table file, MB. */
  tableFileMb: number;
  /** RSS after Engine.open minus before it, MB. */
  openGrowthMb: { largeTable: number; smallTable: number };
  /** openGrowthMb.largeTable − smallTable: what the table costs beyond the sessions, MB. Target < 100. */
  tableGrowthMb: number;
  /** RSS after one synthesis minus before Engine.open, MB. */
  synthesisGrowthMb: { largeTable: number; smallTable: number };
  /** Engine.open wall time (includes hashing the table file), ms. */
  openMs: { largeTable: number; smallTable: number };
}

export interface BenchResults {
  schema: 'tts-parity-bench/1';
  createdAt: string;
  machine: MachineInfo;
  analysis: AnalysisBench;
  /** report.html and the PNGs of a 60 s pair (report-bench.ts). */
  report?: ReportBench;
  engine?: EngineBenchMeta;
  profiles?: Record<string, ProfileBench>;
  ratios?: EngineRatios;
  memory?: MemoryBench;
  lazyTable?: LazyTableBench;
  /** parity sweep at scale (sweep-bench.ts). */
  sweep?: SweepBench;
  /** Peak memory of the analysis paths, in fresh child processes (wav-import-memory.ts, compare-trace-memory.ts). */
  analysisMemory?: AnalysisMemoryBench;
}

export interface AnalysisMemoryBench {
  /** WAV-pair import of two files per case (size and format); null off Linux. */
  wavImport: WavImportMemoryPoint[] | null;
  /** `parity compare-trace --out` of generated trace pairs, one length per point; null off Linux. */
  compareTrace: CompareTraceMemoryBench | null;
}
