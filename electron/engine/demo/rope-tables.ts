import type { Ops } from '../onnx-builder/ops.js';
import type { DecoderSpec } from './decoder-graph.js';
import { exportBuilder } from './export-names.js';

export interface Rope {
  cos: string;
  sin: string;
}

/** ln(theta), written out so that no JS transcendental decides the weights' bytes. */
const LN_THETA: Record<number, number> = { 10000: 9.210340371976184 };

/** The ropeTheta values the builder can write (a config naming another is refused: demo-config-checks.ts). */
export const ROPE_THETAS: readonly number[] = Object.keys(LN_THETA).map(Number);

/** cos/sin [1, 1, S, headDim/2] from position_ids, inv_freq = exp(-ln(theta)·2i/headDim), in float32. */
export function ropeTables(o: Ops, pos: string, spec: DecoderSpec): Rope {
  const half = spec.headDim / 2;
  const lnTheta = LN_THETA[spec.ropeTheta];
  if (lnTheta === undefined) throw new Error(`ropeTheta ${spec.ropeTheta}: no ln written out`);
  const exps = Array.from({ length: half }, (_, i) => (-lnTheta * (2 * i)) / spec.headDim);
  const invFreq = o.op('Exp', [o.constant(`rope_exponents_${spec.headDim}`, 'float32', [half], exps)]);
  const p = o.op('Unsqueeze', [o.cast(pos, 'float32'), o.ints([2])]);
  const shared = (name: string): string => exportBuilder(o.g).shared(name);
  const freqs = o.op('Unsqueeze', [o.op('Mul', [p, invFreq]), o.ints([1])], undefined, shared('freqs'));
  const toFloat = (x: string): string => (o.float === 'float32' ? x : o.cast(x, o.float));
  return { cos: toFloat(o.op('Cos', [freqs], undefined, shared('cos'))), sin: toFloat(o.op('Sin', [freqs], undefined, shared('sin'))) };
}

