/**
 * The JSON that `parity bench` writes (bench/results.json). `analysis` is filled now; engine profile
 * timings (`profiles`), their ratios and memory figures are added by the engine bench later.
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
  /** compareSignals on two 60 s 24 kHz signals: median wall time, ms. Target ≤ 300 ms. */
  pair60sMs: number;
  /** Its median CPU time (this process, user + system), ms: less sensitive to a busy machine. */
  pair60sCpuMs: number;
  /** Integrated + short-term loudness of 10 min mono 24 kHz (one K-weighting pass): median, ms. */
  loudness600sMs: number;
  loudness600sCpuMs: number;
  /** `ffmpeg -af ebur128 -f null -` on the same 10 min signal: median wall time, ms; null without ffmpeg. */
  ffmpegEbur128600sMs: number | null;
  /** How many timed runs each median is taken over (after one warm-up run). */
  runs: number;
}

export interface BenchResults {
  schema: 'tts-parity-bench/1';
  createdAt: string;
  machine: MachineInfo;
  analysis: AnalysisBench;
  profiles?: Record<string, unknown>;
  ratios?: Record<string, unknown>;
  memory?: Record<string, unknown>;
}
