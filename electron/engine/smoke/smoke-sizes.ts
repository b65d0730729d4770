import { codePredictorOf, type BundleManifest } from '../bundle/manifest.js';

/** The sizes of one smoke run: what each symbolic dimension of the export is fed as. */
export interface SmokeSizes {
  /** New positions (decoders, embed). */
  sequence: number;
  /** Past length (eager decoders), or the written row (graph decoders). */
  past: number;
  /** Frames and left-context frames (vocoder). */
  frames: number;
  context: number;
  /** Said in failure messages: "sequence length 3, past length 4". */
  text: string;
  /** Said in the report: "S=3 P=4". */
  short: string;
}

/**
 * An export's label as the loader writes it: "talker eager-fp32" → talker, not graph; "embed" → embed,
 * not graph; "talker batch graph-fp32@8" (bundle.json `batch`) → talker, graph.
 */
export function splitLabel(label: string): { network: string; graph: boolean } {
  const [network, ...rest] = label.split(' ');
  return { network, graph: (rest[rest.length - 1] ?? '').startsWith('graph') };
}

const unique = (xs: number[]): number[] => [...new Set(xs)];

/**
 * Two sequence lengths and two past lengths (every pair that fits maxPositions), so that a length
 * the exporter traced into the graph (the example input's) fails at the others; graph exports run one
 * position at two rows of their fixed buffers; the vocoder two frame counts with and without context.
 */
export function smokeSizes(m: BundleManifest, label: string): SmokeSizes[] {
  const { network, graph } = splitLabel(label);
  const none = { sequence: 1, past: 0, frames: 1, context: 0 };
  if (network === 'vocoder') {
    return [2, 5].flatMap((frames) => [0, 1].map((context) => ({ ...none, frames, context, text: `${frames} frames, ${context} of them left context`, short: `F=${frames} context=${context}` })));
  }
  if (network === 'embed' || network === 'encoder') return [1, 3].map((sequence) => ({ ...none, sequence, text: `sequence length ${sequence}`, short: `S=${sequence}` }));
  const maxPositions = network === 'talker' ? m.talker.maxPositions : codePredictorOf(m, 'smoke check').maxPositions;
  if (graph) return unique([1, maxPositions - 1]).map((past) => ({ ...none, past, text: `position ${past} of the ${maxPositions}-row buffers`, short: `row ${past}/${maxPositions}` }));
  const sizes: SmokeSizes[] = [];
  for (const sequence of unique([1, Math.min(3, maxPositions)])) {
    for (const past of unique([0, Math.min(4, maxPositions - 1)])) {
      if (sequence + past <= maxPositions) sizes.push({ ...none, sequence, past, text: `sequence length ${sequence}, past length ${past}`, short: `S=${sequence} P=${past}` });
    }
  }
  return sizes;
}

/**
 * The value of dimension `index` of tensor `name` in this run, where bundle.json leaves it symbolic
 * (the names are free, so the position says which size it is: docs/bundle-format.md "Networks and tensors").
 */
export function symbolicDim(name: string, index: number, s: SmokeSizes, hop: number): number {
  if (index === 0) return 1; // batch
  const total = s.past + s.sequence;
  if (/^past_key_values\./.test(name)) return s.past;
  if (/^present\./.test(name) || name === 'attention_mask') return total;
  if (name === 'audio_codes') return s.frames;
  if (name === 'noise' || name === 'audio') return s.frames * hop;
  return s.sequence;
}
