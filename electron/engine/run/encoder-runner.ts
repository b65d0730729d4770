import { i64Tensor, run, type Feeds, type OrtSession } from '../ort-session.js';
import type { RunClock } from './run-clock.js';

/** The encoder export's sizes and how the profile drives it. */
export interface EncoderShape {
  maxPositions: number;
  /** graph: the static-shape export, fed `maxPositions` ids (padded with id 0 and masked out). */
  graph: boolean;
}

/**
 * The text encoder (bundle.json `encoder`, Dia): run once per synthesis on the text's ids; its output and mask
 * are fed to every talker step as `encoder_hidden_states` and `encoder_attention_mask`.
 */
export class EncoderRunner {
  constructor(
    private readonly session: OrtSession,
    private readonly e: EncoderShape,
    private readonly clock: RunClock,
  ) {}

  /** ids: the text's token ids (at most maxPositions, checked at load). Returns the talker's extra feeds. */
  async encode(ids: readonly number[]): Promise<Feeds> {
    const width = this.e.graph ? this.e.maxPositions : ids.length;
    const input = new BigInt64Array(width);
    const mask = new BigInt64Array(width);
    ids.forEach((id, i) => {
      input[i] = BigInt(id);
      mask[i] = 1n;
    });
    const maskTensor = i64Tensor(mask, [1, width]);
    const out = await this.clock.time(() => run(this.session, { input_ids: i64Tensor(input, [1, width]), attention_mask: maskTensor }));
    return { encoder_hidden_states: out.encoder_hidden_states, encoder_attention_mask: maskTensor };
  }
}
