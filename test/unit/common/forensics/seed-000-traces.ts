/**
 * Seed 000 (/work/shared/seeds/000_*): its author logged only the per-step talker logit mean, quoted as
 *   eager:  step1 13.43   step2 0.312   step3 13.20   ...
 *   graph:  step1 13.43   step2 13.56   step3 13.59   ...
 * Written as the partial traces that author would have written (`{"step":2,"logits":{"mean":0.312}}`).
 * Only those three steps are quoted, so only they are here. The seed gives no q, frame rate or sample
 * rate: the header's values (q 8, 12.5 frames/s, 24 kHz) are placeholders; no codes are compared.
 */
export const SEED_000_MEANS = { eager: [13.43, 0.312, 13.2], graph: [13.43, 13.56, 13.59] } as const;

const HEADER = (engine: string) => JSON.stringify({ schema: 'tts-parity-trace/1', engine, q: 8, frameRate: 12.5, sampleRate: 24000 });

function meansTrace(engine: string, means: readonly number[]): string {
  return [HEADER(engine), ...means.map((mean, i) => JSON.stringify({ step: i + 1, logits: { mean } }))].join('\n') + '\n';
}

export const seed000Eager = (): string => meansTrace('HiggsAudioV3 eager (seed 000)', SEED_000_MEANS.eager);
export const seed000Graph = (): string => meansTrace('HiggsAudioV3 cuda graph (seed 000)', SEED_000_MEANS.graph);
