import { toHalfArray } from '../numeric/float16.js';
import type { BundleManifest, TensorSpec } from '../bundle/manifest.js';
import { f16Tensor, f32Tensor, f64Tensor, i64Tensor, type Feeds, type OrtTensor } from '../ort-session.js';
import { symbolicDim, type SmokeSizes } from './smoke-sizes.js';

/** The seed of every smoke run's random inputs: the same bundle gets the same feeds every time. */
export const SMOKE_SEED = 0x5eed;

/** mulberry32: a small, fast seeded generator of uniform numbers in [0, 1) (KV buffers can be millions of values). */
export function seededUniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The shape fed for `spec` in this run: bundle.json's numbers, its symbols resolved by position. */
export function concreteShape(spec: TensorSpec, s: SmokeSizes, hop: number): number[] {
  return spec.shape.map((d, i) => (typeof d === 'number' ? d : symbolicDim(spec.name, i, s, hop)));
}

const count = (dims: number[]): number => dims.reduce((a, b) => a * b, 1);

/**
 * Random inputs for one run of an export, as the engine would feed them in kind: embeddings, KV
 * buffers and noise uniform in [-1, 1); attention_mask ones over the positions in use; position_ids
 * the positions the sizes say; ids and codes in range. `graph`: one position at row `sizes.past`.
 */
export function smokeFeeds(m: BundleManifest, inputs: TensorSpec[], s: SmokeSizes, graph: boolean, seed: number, network = ''): Feeds {
  const next = seededUniform(seed);
  const feeds: Feeds = {};
  for (const spec of inputs) {
    const dims = concreteShape(spec, s, m.hopLength);
    const n = count(dims);
    const ints = (value: (i: number) => number): OrtTensor => i64Tensor(BigInt64Array.from({ length: n }, (_, i) => BigInt(value(i))), dims);
    const randomInt = (below: number) => ints(() => Math.floor(next() * below));
    switch (spec.name) {
      // Per row ([batch, length]): a batched graph export (bundle.json `batch`) has more than one.
      case 'attention_mask':
        feeds[spec.name] = ints((i) => (!graph || i % dims[1] <= s.past ? 1 : 0));
        break;
      case 'position_ids':
        feeds[spec.name] = ints((i) => s.past + (i % dims[1]));
        break;
      case 'generation_step':
        feeds[spec.name] = randomInt(Math.max(1, m.codebooks - 1));
        break;
      case 'input_ids':
        // The encoder reads text ids (bytes for byte-level text); embed, every row of its table.
        feeds[spec.name] = randomInt(network === 'encoder' ? textIdsBelow(m) : m.embed.codecRowOffset + m.codebooks * m.embed.codecRowsPerCodebook);
        break;
      case 'encoder_attention_mask':
        feeds[spec.name] = ints(() => 1);
        break;
      case 'audio_codes':
        feeds[spec.name] = randomInt(m.codebookSize);
        break;
      case 'context_frames':
        feeds[spec.name] = ints(() => s.context);
        break;
      default:
        feeds[spec.name] = randomTensor(spec, dims, next);
    }
  }
  return feeds;
}

/** Text ids the encoder can be fed: the bytes (byte-level), or id 0 only (a tokenizer.json's vocabulary is not read here). */
const textIdsBelow = (m: BundleManifest): number => (m.text.tokenizer === 'byte' ? 256 : 1);

/** Floats uniform in [-1, 1) (phase0 in [0, 1)), any other integer input zeros, bool false. */
function randomTensor(spec: TensorSpec, dims: number[], next: () => number): OrtTensor {
  const n = count(dims);
  const scale = spec.name === 'phase0' ? (): number => next() : (): number => 2 * next() - 1;
  switch (spec.dtype) {
    case 'float32':
      return f32Tensor(Float32Array.from({ length: n }, scale), dims);
    case 'float16':
      return f16Tensor(toHalfArray(Float32Array.from({ length: n }, scale)), dims);
    case 'float64':
      return f64Tensor(Float64Array.from({ length: n }, scale), dims);
    case 'int64':
      return i64Tensor(new BigInt64Array(n), dims);
    default:
      throw new Error(`smoke: no random input for ${spec.name} of type ${spec.dtype}`);
  }
}
