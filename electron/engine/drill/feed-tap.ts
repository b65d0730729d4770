import type { ExecutionProfile } from '../../common/profile/types.js';
import type { Feeds, OrtSession } from '../ort-session.js';
import { copyTensor, type TensorCopy } from './tensor-copy.js';

/** The engine's three networks, as the drill-down names them. */
export type DrillNetwork = 'talker' | 'code-predictor' | 'vocoder';

/** One session.run of the recorded network at the recorded step, copied (the runners reuse their buffers). */
export interface RecordedRun {
  network: DrillNetwork;
  /** The model file inside the bundle, and how its session was opened. */
  file: string;
  optimize: boolean;
  provider: 'cpu' | 'cuda';
  feeds: Record<string, TensorCopy>;
  outputs: Record<string, TensorCopy>;
}

/**
 * SynthesisOptions.recordFeeds: copy every run of `stage`'s network at `step` (1-based; for the
 * vocoder, the run that decodes frame `step`: the only run for vocoder=full, chunk ⌊(step−1)/chunkFrames⌋
 * for stream). Nothing is copied at other steps, and without a recorder no session is wrapped.
 */
export interface FeedRecorder {
  step: number;
  stage: DrillNetwork;
  onRun(run: RecordedRun): void;
}

/** Where the synthesis loop is: the talker/code-predictor step, set by synthesizeWith. */
export class FeedTap {
  private current = 0;
  private vocoderRuns = 0;

  constructor(
    private readonly recorder: FeedRecorder,
    private readonly profile: ExecutionProfile,
    private readonly chunkFrames: number,
  ) {}

  enterStep(step: number): void {
    this.current = step;
  }

  /** The session itself, or (for the recorded network) a proxy whose run() also copies feeds and outputs when armed. */
  wrap(network: DrillNetwork, file: string, optimize: boolean, provider: 'cpu' | 'cuda', session: OrtSession): OrtSession {
    if (network !== this.recorder.stage) return session;
    const run = async (feeds: Feeds, fetches?: Feeds): Promise<Feeds> => {
      const armed = this.armed(network);
      const copied = armed ? copyAll(feeds) : undefined;
      const out = (fetches ? await session.run(feeds, fetches) : await session.run(feeds)) as Feeds;
      if (copied) this.recorder.onRun({ network, file, optimize, provider, feeds: copied, outputs: copyAll(out) });
      return out;
    };
    return new Proxy(session, {
      get(target, key) {
        if (key === 'run') return run;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  private armed(network: DrillNetwork): boolean {
    if (network !== 'vocoder') return this.current === this.recorder.step;
    const index = this.vocoderRuns++;
    const wanted = this.profile.vocoder === 'full' ? 0 : Math.floor((this.recorder.step - 1) / this.chunkFrames);
    return index === wanted;
  }
}

function copyAll(feeds: Feeds): Record<string, TensorCopy> {
  const out: Record<string, TensorCopy> = {};
  for (const [name, t] of Object.entries(feeds)) out[name] = copyTensor(t);
  return out;
}
