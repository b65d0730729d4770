/**
 * An execution profile: one way to run the same bundle (DESIGN.md, "Execution profiles").
 * Written as a preset plus overrides, e.g. `graph,vocoder=stream,fault=stale-feedback@2`;
 * parsing lives in `parse-profile.ts`.
 */
export type Preset = 'eager' | 'graph';
export type Stage = 'talker' | 'code-predictor' | 'vocoder';

export type Fault =
  /** At talker step N the audio-feedback input reads the previous step's codes (seed 000). */
  | { kind: 'stale-feedback'; step: number }
  /** Streaming vocoder chunks decoded without left context or carried state (seed 002). */
  | { kind: 'no-left-context' }
  /** A NaN appears in STAGE at step N, as from a fallback attention path (seed 003). */
  | { kind: 'nan'; stage: Stage; step: number }
  /** An activation exceeds the fp16 range in one layer. */
  | { kind: 'fp16-overflow' }
  /** From talker step N on, unseeded ~1e-6 relative noise, as run-to-run reduction order (docs/faults.md). */
  | { kind: 'nondeterministic'; step: number }
  /** bucket=K stream chunks: each chunk after a padded one starts with the padded buffer's stale tail (vllm-omni 4466). */
  | { kind: 'stale-tail' }
  /** batch=N: from talker step N, the gather of each row's last-position logits/hidden reads the next row's (sglang-omni 578). */
  | { kind: 'batch-gather'; step: number };

export interface ExecutionProfile {
  preset: Preset;
  cache: 'kv' | 'recompute';
  vocoder: 'full' | 'stream';
  /**
   * vocoder=stream only: pad each chunk's decoded span to a multiple of K frames (a number), or to the
   * smallest of the listed sizes that holds it (ascending; bucket.ts); absent: no padding.
   */
  bucket?: number | number[];
  /** Rows of the batch the prompt runs in as row 0 (batch=N, run/batch-rows.ts); absent: 1, the unbatched run. */
  batch?: number;
  backend: 'ort' | 'native';
  ep: 'cpu' | 'cuda';
  precision: 'fp32' | 'fp16';
  faults: Fault[];
  /** The canonical string form, e.g. "graph,vocoder=stream". */
  text: string;
}
