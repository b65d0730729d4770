import { bucketPadding } from '../../common/profile/bucket.js';
import type { StepRecord } from '../../common/trace/step-record.js';
import { recordVocoderCounts } from '../../common/trace/vocoder-counts.js';
import type { SynthesisPlan } from '../synthesize.js';
import type { SynthesisOptions } from '../types.js';
import { dropsLeftContext, streamChunk } from './stream-chunk.js';
import { decodeFrames, type VocoderShape } from './vocoder-runner.js';

/**
 * The vocoder stage of one synthesis. vocoder=full: one run over every frame, after the loop.
 * vocoder=stream: chunks of `chunkFrames` frames, each decoded as soon as its last frame exists (so
 * the first audio arrives while the talker is still running), re-decoding up to `leftContextFrames`
 * earlier frames as left context and starting from the phase the previous chunk ended on; fault
 * no-left-context drops both (context 0, phase 0). bucket=K pads each chunk's span to a multiple of K
 * frames and trims the audio back (see decodeChunk for the carried phase); fault stale-tail then starts
 * each chunk after a padded one with the padding's audio (vllm-omni 4466). NaN/Inf counts of the audio
 * are added to each frame's step record (stage vocoder) by finish().
 */
export class Vocoding {
  readonly audio: Float32Array;
  /** Wall time spent decoding, ms. */
  ms = 0;
  private readonly shape: VocoderShape;
  private readonly poison?: number;
  private readonly stream: boolean;
  private readonly chunk: number;
  private readonly totalChunks: number;
  private next = 0;
  private chunks = 0;
  private phase = 0;
  /** Fault stale-tail: the last STALE_TAIL_MS of the previous chunk's padded output buffer. */
  private staleTail?: Float32Array;
  private readonly leakSamples: number;

  constructor(
    private readonly plan: SynthesisPlan,
    private readonly frames: number,
    private readonly checkAbort: () => void,
    private readonly opts: SynthesisOptions,
    poisonStep?: number,
  ) {
    const m = plan.manifest;
    this.shape = { codebooks: m.codebooks, hop: m.hopLength };
    this.poison = poisonStep === undefined ? undefined : poisonStep - 1;
    this.audio = new Float32Array(frames * m.hopLength);
    this.stream = plan.profile.vocoder === 'stream';
    this.chunk = m.vocoder.chunkFrames;
    this.totalChunks = Math.ceil(frames / this.chunk);
    this.leakSamples = plan.profile.faults.some((f) => f.kind === 'stale-tail') ? Math.round((STALE_TAIL_MS / 1000) * m.sampleRate) : 0;
  }

  /** `done` frames of `codes` [frames, q] exist: stream decodes every chunk they complete. */
  async framesReady(codes: Int32Array, done: number): Promise<void> {
    if (!this.stream) return;
    while (this.next < this.frames && Math.min(this.frames, this.next + this.chunk) <= done) await this.decodeChunk(codes);
  }

  /** Decodes what is left and returns the whole utterance's audio. */
  async finish(codes: Int32Array, steps: StepRecord[]): Promise<Float32Array> {
    if (this.stream) await this.framesReady(codes, this.frames);
    else {
      const t0 = performance.now();
      this.opts.onProgress?.({ stage: 'vocoder', step: 0, totalSteps: 1 });
      const out = await decodeFrames(this.plan.vocoder, this.shape, this.plan.clock, codes, 0, this.frames, 0, 0, this.poison);
      this.audio.set(out.audio);
      this.ms += performance.now() - t0;
      this.opts.onAudioChunk?.(out.audio, 0);
      this.opts.onProgress?.({ stage: 'vocoder', step: 1, totalSteps: 1 });
    }
    recordVocoderCounts(this.audio, this.shape.hop, this.frames, steps);
    return this.audio;
  }

  private async decodeChunk(codes: Int32Array): Promise<void> {
    this.checkAbort();
    const t0 = performance.now();
    const noContext = dropsLeftContext(this.plan.profile);
    const start = this.next;
    const { from, end, context } = streamChunk(start, this.frames, this.plan.manifest.vocoder, noContext);
    const phase0 = noContext ? 0 : this.phase;
    const bucket = this.plan.profile.bucket;
    const pad = bucket === undefined ? 0 : bucketPadding(end - from, bucket);
    const run = (padFrames: number) =>
      decodeFrames(this.plan.vocoder, this.shape, this.plan.clock, codes, from, end, context, phase0, this.poison, padFrames);
    const out = await run(pad);
    // The vocoder's end_phase is past the padding; the next chunk must start from the phase after the
    // real frames, which the graph has no output for, so a padded chunk with a successor is decoded
    // once more unpadded for its end phase only (its audio equals the padded run's: the vocoder is causal).
    this.phase = pad > 0 && end < this.frames && !noContext ? (await run(0)).endPhase : out.endPhase;
    if (this.staleTail) out.audio.set(this.staleTail.subarray(0, Math.min(this.staleTail.length, out.audio.length)));
    this.staleTail = this.leakSamples > 0 && pad > 0 ? out.padAudio.subarray(Math.max(0, out.padAudio.length - this.leakSamples)) : undefined;
    this.audio.set(out.audio, start * this.shape.hop);
    this.next = end;
    this.chunks++;
    this.ms += performance.now() - t0;
    this.opts.onAudioChunk?.(out.audio, start * this.shape.hop);
    this.opts.onProgress?.({ stage: 'vocoder', step: this.chunks, totalSteps: this.totalChunks });
  }
}

/** Fault stale-tail: how much of the padded buffer's tail leaks per chunk, as vllm-omni 4466 measured (~46 ms). */
export const STALE_TAIL_MS = 46;
