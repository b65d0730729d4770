import type { DemoConfig } from './demo-config.js';

/** One broken rule of a demo config: the field (dotted path) it is reported on and why. */
export interface DemoConfigProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Rules across fields that the demo builder's graphs and the bundle loader (load-bundle.ts
 * checkConsistency) rely on, said in the config's own field names so that a bad config is refused
 * before anything is built. Field-by-field types and ranges are the zod schema's job (demo-config-schema.ts).
 */
export function demoConfigProblems(c: DemoConfig, faultVariants: boolean): DemoConfigProblem[] {
  const found: DemoConfigProblem[] = [];
  const add = (path: string, message: string): void => {
    found.push({ path: path.split('.'), message });
  };
  for (const [name, d] of [['talker', c.talker], ['codePredictor', c.codePredictor]] as const) {
    if (d.headDim % 2 !== 0) add(`${name}.headDim`, `${name}.headDim (${d.headDim}) must be even: RoPE rotates halves`);
    if (d.heads % d.kvHeads !== 0) add(`${name}.heads`, `${name}.heads (${d.heads}) must be a multiple of kvHeads (${d.kvHeads})`);
  }
  if (c.eosCode !== c.codebookSize || c.bosCode !== c.codebookSize + 1) {
    add(c.eosCode !== c.codebookSize ? 'eosCode' : 'bosCode', `eosCode/bosCode must be codebookSize, codebookSize + 1 (${c.codebookSize}, ${c.codebookSize + 1}): the codec rows are codes, EOS, BOS`);
  }
  if (c.textVocab !== c.textBos + 1 || c.textBos < 256) add('textVocab', `textVocab (${c.textVocab}) must be textBos + 1 with textBos ≥ 256 (byte ids, then BOS)`);
  if (faultVariants && c.overflow.layer >= c.talker.layers) add('overflow.layer', `overflow.layer (${c.overflow.layer}) must be a talker layer (< ${c.talker.layers}), or build without faultVariants`);
  return found;
}

/**
 * The loader's own consistency rules (load-bundle.ts checkConsistency) in config terms: a config
 * breaking them would build a bundle that `parity bundle check` then refuses.
 */
export function demoManifestProblems(c: DemoConfig): DemoConfigProblem[] {
  const found: DemoConfigProblem[] = [];
  const add = (path: string, message: string): void => {
    found.push({ path: path.split('.'), message });
  };
  if (Math.abs(c.hopLength * c.frameRate - c.sampleRate) > 1e-9) add('hopLength', `hopLength × frameRate must equal sampleRate: ${c.hopLength} × ${c.frameRate} ≠ ${c.sampleRate}`);
  if (c.codePredictor.hidden !== c.talker.hidden) add('codePredictor.hidden', `codePredictor.hidden (${c.codePredictor.hidden}) must equal talker.hidden (${c.talker.hidden}): position 0 is the talker's hidden state`);
  if (c.codePredictor.maxPositions < c.codebooks) add('codePredictor.maxPositions', `codePredictor.maxPositions (${c.codePredictor.maxPositions}) must be at least codebooks (${c.codebooks})`);
  const need = 1 + c.maxTextBytes + c.maxFrames;
  if (need > c.talker.maxPositions) add('talker.maxPositions', `talker.maxPositions (${c.talker.maxPositions}) must hold 1 + maxTextBytes + maxFrames = ${need}`);
  if (c.vocoder.f0Min >= c.vocoder.f0Max) add('vocoder.f0Min', `vocoder.f0Min (${c.vocoder.f0Min}) must be below vocoder.f0Max (${c.vocoder.f0Max})`);
  if (c.vocoder.f0Max >= c.sampleRate / 2) add('vocoder.f0Max', `vocoder.f0Max (${c.vocoder.f0Max}) must be below the Nyquist frequency (sampleRate / 2 = ${c.sampleRate / 2})`);
  return found;
}
