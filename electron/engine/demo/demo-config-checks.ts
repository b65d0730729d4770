import { talkerTextProblems, templatePositions } from '../bundle/prefill-template.js';
import { codecRowsPerCodebook, talkerVocabOf, type DemoConfig } from './demo-config.js';
import { ROPE_THETAS } from './rope-tables.js';

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
    if (!ROPE_THETAS.includes(d.ropeTheta)) add(`${name}.ropeTheta`, `${name}.ropeTheta (${d.ropeTheta}) is not one the demo builder writes (${ROPE_THETAS.join(', ')}): its ln(theta) is written out so the weights' bytes never depend on Math.log`);
  }
  if (c.talkerVocab !== undefined) {
    const V = c.codebookSize;
    if (c.talkerVocab < V + 2) add('talkerVocab', `talkerVocab (${c.talkerVocab}) must be at least codebookSize + 2 (${V + 2}): EOS and BOS lie among its special ids`);
    for (const f of ['eosCode', 'bosCode'] as const) {
      if (c[f] < V || c[f] >= c.talkerVocab) add(f, `${f} (${c[f]}) must be a special id of the talker vocabulary (${V}..${c.talkerVocab - 1})`);
    }
    if (c.eosCode === c.bosCode) add('bosCode', `bosCode (${c.bosCode}) must differ from eosCode`);
  } else if (c.eosCode !== c.codebookSize || c.bosCode !== c.codebookSize + 1) {
    add(c.eosCode !== c.codebookSize ? 'eosCode' : 'bosCode', `eosCode/bosCode must be codebookSize, codebookSize + 1 (${c.codebookSize}, ${c.codebookSize + 1}): the codec rows are codes, EOS, BOS`);
  }
  if (c.prefill) {
    if (c.textVocab < c.textBos + 1 || c.textBos < 256) add('textVocab', `textVocab (${c.textVocab}) must be at least textBos + 1 with textBos ≥ 256 (byte ids, then the template's special text ids)`);
  } else if (c.textVocab !== c.textBos + 1 || c.textBos < 256) add('textVocab', `textVocab (${c.textVocab}) must be textBos + 1 with textBos ≥ 256 (byte ids, then BOS)`);
  if (c.codebookSizes) {
    if (c.codebookSizes.length !== c.codebooks) add('codebookSizes', `codebookSizes has ${c.codebookSizes.length} entries, codebooks is ${c.codebooks}`);
    const over = c.codebookSizes.findIndex((n) => n > c.codebookSize);
    if (over >= 0) add(`codebookSizes.${over}`, `codebookSizes[${over}] (${c.codebookSizes[over]}) exceeds codebookSize (${c.codebookSize})`);
  }
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
  if (!c.codePredictorProjection && c.codePredictor.hidden !== c.talker.hidden) add('codePredictor.hidden', `codePredictor.hidden (${c.codePredictor.hidden}) must equal talker.hidden (${c.talker.hidden}): position 0 is the talker's hidden state`);
  if (c.codePredictor.maxPositions < c.codebooks) add('codePredictor.maxPositions', `codePredictor.maxPositions (${c.codePredictor.maxPositions}) must be at least codebooks (${c.codebooks})`);
  const prefill = c.prefill ? templatePositions(c.prefill.template, c.maxTextBytes) : 1 + c.maxTextBytes;
  const terms = c.prefill ? `the prefill template at its longest (${prefill} positions)` : '1 + maxTextBytes';
  const need = prefill + c.maxFrames;
  if (need > c.talker.maxPositions) add('talker.maxPositions', `talker.maxPositions (${c.talker.maxPositions}) must hold ${terms} + maxFrames = ${need}`);
  const text = talkerTextProblems({
    prefill: c.prefill,
    textConditioning: c.textConditioning,
    textRows: c.textVocab,
    codecRows: codecRowsPerCodebook(c),
    byteText: true,
    ...(c.prefill ? {} : { textBos: c.textBos }),
  });
  // Reported on the config's own field: prefill, textConditioning, or textBos (text.bos in bundle.json).
  for (const p of text) add(p.field.startsWith('talker.prefill') ? 'prefill' : p.field.startsWith('talker.textConditioning') ? 'textConditioning' : 'textBos', p.message);
  const vocab = talkerVocabOf(c);
  for (const id of Object.keys(c.specialCodeNames ?? {}).map(Number)) {
    if (id < c.codebookSize || id >= vocab) add('specialCodeNames', `specialCodeNames["${id}"] is not a special id (${c.codebookSize}..${vocab - 1})`);
  }
  if (c.vocoder.f0Min >= c.vocoder.f0Max) add('vocoder.f0Min', `vocoder.f0Min (${c.vocoder.f0Min}) must be below vocoder.f0Max (${c.vocoder.f0Max})`);
  if (c.vocoder.f0Max >= c.sampleRate / 2) add('vocoder.f0Max', `vocoder.f0Max (${c.vocoder.f0Max}) must be below the Nyquist frequency (sampleRate / 2 = ${c.sampleRate / 2})`);
  return found;
}
