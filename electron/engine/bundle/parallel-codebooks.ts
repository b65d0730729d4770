import type { BundleManifest } from './manifest.js';

type Fail = (msg: string) => never;

/** Largest delay of the pattern (0 without one): the steps after the last frame's codebook 0. */
export const maxDelay = (m: Pick<BundleManifest, 'codebookDelays'>): number => Math.max(0, ...(m.codebookDelays ?? []));

/**
 * The rules across fields of the Dia shape (docs/bundle-format.md, "Every codebook per step: encoder and delay
 * pattern"): a talker that emits every codebook has no code predictor and reads the text through an encoder;
 * a delay pattern needs such a talker, one delay per codebook (codebook 0's is 0: its EOS ends the take), and
 * the EOS and PAD codes it forces, which are fed back as codec rows.
 */
export function checkParallelCodebooks(m: BundleManifest, fail: Fail): void {
  const all = m.talker.codebooks === 'all';
  if (all && m.codePredictor) fail('codePredictor is set beside talker.codebooks "all": the talker already emits every codebook; leave codePredictor out');
  if (!all && !m.codePredictor) fail('codePredictor is required unless talker.codebooks is "all" (the talker gives codebook 0, the code predictor the rest)');
  if (all && !m.encoder) fail('talker.codebooks "all" needs an encoder: the engine runs this shape (Dia) with the text read by an encoder, the talker starting from the BOS frame');
  if (m.encoder && !all) fail('encoder is set, but talker.codebooks is not "all": the engine feeds an encoder only to a talker that emits every codebook (Dia)');
  if (all && m.talker.vocab < m.codebookSize) fail(`talker.vocab (${m.talker.vocab}) must be at least codebookSize (${m.codebookSize}): each codebook's logit row holds its codes`);
  if (all && m.batch) fail('batch is set beside talker.codebooks "all": the batched runners feed no encoder output; leave batch out');
  if (m.encoder && (m.talker.prefill || m.talker.textConditioning)) fail('talker.prefill and talker.textConditioning place text in the talker; with an encoder the text goes to the encoder only');
  const delays = m.codebookDelays;
  if (!delays) return;
  if (!all) fail('codebookDelays needs talker.codebooks "all": a delay pattern shifts codebooks that one step emits together');
  if (delays.length !== m.codebooks) fail(`codebookDelays has ${delays.length} entries, codebooks is ${m.codebooks}: one delay per codebook`);
  if (delays[0] !== 0) fail(`codebookDelays[0] must be 0 (found ${delays[0]}): codebook 0's EOS ends the take, the others follow it by their delays`);
  const { eos, pad } = m.specialCodes;
  if (eos === undefined || pad === undefined) fail('codebookDelays needs specialCodes.eos and specialCodes.pad: each codebook emits EOS after its last frame, then PAD');
  for (const [name, id] of [['eos', eos], ['pad', pad]] as const) {
    if ((id as number) >= m.embed.codecRowsPerCodebook) fail(`specialCodes.${name} (${id}) must be a codec row (< embed.codecRowsPerCodebook ${m.embed.codecRowsPerCodebook}): it is fed back`);
  }
}
