import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileError } from '../../../electron/common/errors.js';
import { parseProfile } from '../../../electron/common/profile/parse-profile.js';
import { GREEDY } from '../../../electron/common/sampling/types.js';
import { BundleManifest } from '../../../electron/engine/bundle/manifest.js';
import { loadTextTokenizer } from '../../../electron/engine/bundle/text-tokenizer.js';
import { f32Tensor, f64Tensor, type Feeds, type OrtSession } from '../../../electron/engine/ort-session.js';
import type { DecoderRunner } from '../../../electron/engine/run/decoder-runners.js';
import type { EmbeddingTable } from '../../../electron/engine/run/embedding-table.js';
import type { EncoderRunner } from '../../../electron/engine/run/encoder-runner.js';
import { RunClock } from '../../../electron/engine/run/run-clock.js';
import { synthesizeWith, type SynthesisPlan } from '../../../electron/engine/synthesize.js';

/** The Dia-shaped bundle.json of docs/bundle-format.md: Q 4, vocab 67 (codes 0..63, EOS 64, PAD 65, BOS 66), delays 0, 2, 3, 4, 1 frame per character, hop 512. */
async function diaManifest(): Promise<BundleManifest> {
  const page = await readFile(join(import.meta.dirname, '../../../docs/bundle-format.md'), 'utf8');
  const found = /<!-- example: bundle-json-dia -->\n```json\n([\s\S]*?)\n```/.exec(page);
  if (!found) throw new Error('docs/bundle-format.md has no bundle-json-dia example');
  return BundleManifest.parse(JSON.parse(found[1]));
}

const Q = 4;
const V = 67;
const [EOS, PAD, BOS] = [64, 65, 66];

/**
 * A stand-in talker whose step-s row of codebook k has its top id at 10k + s, except codebook 0 at step 3, where EOS
 * is on top (the model ends the take), and codebook 1 at step 4, where PAD is on top (a special id: masked, so the
 * next best, 14, is taken). Records what each step was fed.
 */
function fakeRun() {
  const fed: { codes: number[]; extra?: Feeds }[] = [];
  const vocoded: number[][] = [];
  let step = 0;
  const talker: DecoderRunner = {
    reset: () => (step = 0),
    forward: (_embeds, n, extra) => {
      step++;
      expect(n).toBe(1);
      fed[fed.length - 1].extra = extra;
      const logits = new Float32Array(Q * V);
      for (let k = 0; k < Q; k++) logits[k * V + 10 * k + step] = 5;
      if (step === 3) logits[EOS] = 9;
      if (step === 4) logits[V + PAD] = 9;
      return Promise.resolve({ logits });
    },
  };
  const table = {
    feedback: (codes: ArrayLike<number>) => {
      fed.push({ codes: Array.from(codes) });
      return new Float32Array(32);
    },
  } as unknown as EmbeddingTable;
  const encoded: number[][] = [];
  const encoder = { encode: (ids: readonly number[]) => (encoded.push([...ids]), Promise.resolve({ encoder_hidden_states: f32Tensor(new Float32Array(1), [1, 1, 1]) })) } as unknown as EncoderRunner;
  const vocoder = {
    run: (feeds: Feeds) => {
      const codes = Array.from(feeds.audio_codes.data as BigInt64Array, Number);
      for (let i = 0; i < codes.length; i += Q) vocoded.push(codes.slice(i, i + Q));
      const samples = (codes.length / Q) * 512;
      return Promise.resolve({ audio: f32Tensor(new Float32Array(samples), [1, samples]), end_phase: f64Tensor(Float64Array.of(0), [1]) });
    },
  } as unknown as OrtSession;
  return { talker, table, encoder, vocoder, fed, encoded, vocoded };
}

describe('the all-codebooks loop (talker.codebooks "all", codebookDelays)', () => {
  it('feeds the BOS frame then each step\'s emission, ends on codebook 0\'s own EOS, and vocodes the frames with the delay undone', async () => {
    const m = await diaManifest();
    const f = fakeRun();
    const plan: SynthesisPlan = {
      manifest: m,
      tokenizer: (await loadTextTokenizer('', m, 'bundle.json')).tokenizer,
      profile: parseProfile('eager'),
      talker: f.talker,
      encoder: f.encoder,
      vocoder: f.vocoder,
      table: f.table,
      clock: new RunClock(),
      provider: 'cpu',
      bundleHash: 'test',
    };
    const r = await synthesizeWith(plan, { text: 'hello', profile: plan.profile, seed: 0, sampling: GREEDY });
    expect(f.encoded).toEqual([[104, 101, 108, 108, 111]]); // the UTF-8 bytes of "hello", once
    // Hand-derived from the rules (docs/bundle-format.md, "Every codebook per step"): BOS lead-in of 0, 2, 3, 4
    // steps; codebook 0's EOS at step 3 (on top), so codebook k's EOS at 3 + delays[k], PAD after; 7 steps.
    const emitted = [
      [1, BOS, BOS, BOS],
      [2, BOS, BOS, BOS],
      [EOS, 13, BOS, BOS],
      [PAD, 14, 24, BOS],
      [PAD, EOS, 25, 35],
      [PAD, PAD, EOS, 36],
      [PAD, PAD, PAD, EOS],
    ];
    expect(r.steps.map((s) => s.codes)).toEqual(emitted);
    expect(f.fed.map((x) => x.codes)).toEqual([[BOS, BOS, BOS, BOS], ...emitted.slice(0, 6)]);
    expect(f.fed.every((x) => x.extra?.encoder_hidden_states !== undefined)).toBe(true); // the encoder's output, every step
    expect(r.frames).toBe(2); // "hello" asked for 5; the model's EOS at step 3 ended the take
    expect(r.codebookDelays).toEqual([0, 2, 3, 4]);
    expect([...r.codes]).toEqual([1, 13, 24, 35, 2, 14, 25, 36]);
    expect(f.vocoded).toEqual([
      [1, 13, 24, 35],
      [2, 14, 25, 36],
    ]);
    expect(r.audio.length).toBe(2 * 512);
    // The trace's rows: codebook 0's raw row (EOS on top at step 3), codebooks 1..3 as code-predictor rows.
    expect(r.steps[2].logits.argmax).toBe(EOS);
    expect(r.steps[3].codePredictorLogits?.[0].argmax).toBe(PAD);
  });

  it('refuses fault nan@code-predictor in one line: there is no code predictor to poison', async () => {
    const m = await diaManifest();
    const f = fakeRun();
    const profile = parseProfile('eager,fault=nan@code-predictor:2');
    const plan = { manifest: m, tokenizer: (await loadTextTokenizer('', m, 'bundle.json')).tokenizer, profile, talker: f.talker, encoder: f.encoder, vocoder: f.vocoder, table: f.table, clock: new RunClock(), provider: 'cpu', bundleHash: 'test' } as const;
    await expect(synthesizeWith(plan, { text: 'hello', profile, seed: 0, sampling: GREEDY })).rejects.toThrow(ProfileError);
    await expect(synthesizeWith(plan, { text: 'hello', profile, seed: 0, sampling: GREEDY })).rejects.toThrow(
      'profile "eager,fault=nan@code-predictor:2": fault nan@code-predictor: this bundle has no code predictor (talker.codebooks "all": the talker emits every codebook); use nan@talker',
    );
  });
});
