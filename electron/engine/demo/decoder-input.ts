import type { Dim } from '../onnx-builder/graph-builder.js';
import type { Ops } from '../onnx-builder/ops.js';
import type { DecoderOptions, DecoderSpec } from './decoder-graph.js';

/** inputs_embeds, projected to spec.hidden when opts.inputHidden says its width differs. */
export function decoderInput(o: Ops, spec: DecoderSpec, opts: DecoderOptions, S: Dim): string {
  const width = opts.inputHidden ?? spec.hidden;
  const x = o.g.input('inputs_embeds', o.float, [opts.batch ?? 1, S, width]);
  if (width === spec.hidden) return x;
  return o.matmul(x, o.param('small_to_mtp_projection.weight', [width, spec.hidden], 1 / Math.sqrt(width)));
}
