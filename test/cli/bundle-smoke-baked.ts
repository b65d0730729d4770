import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { writeDemoBundle } from '../../electron/engine/demo/build-demo-bundle.js';

const { onnx } = onnxProto;

/** The demo eager talker's GQA reshape of layer 0's keys, [1, kvHeads, T, headDim] → [1, kvHeads, 1, T, headDim]. */
export const BAKED_NODE = 'eager.layers.0.attn.reshape_4';

/**
 * The demo bundle, fp32 only, with the length that node reshapes (-1 in the demo: taken from the
 * tensor) replaced by the number `total`, as torch.onnx.export bakes the example's length when GQA is
 * written with repeat_interleave. Its metadata is unchanged, so plain `bundle check` passes; the
 * talker runs only while past + new positions = `total`.
 */
export async function writeBakedLengthBundle(dir: string, total: number): Promise<string> {
  await writeDemoBundle(dir, undefined, { precisions: ['fp32'], faultVariants: false });
  const path = join(dir, 'talker.eager.fp32.onnx');
  const model = onnx.ModelProto.decode(await readFile(path));
  const graph = model.graph as onnxProto.onnx.GraphProto;
  const node = graph.node.find((n) => n.name === BAKED_NODE);
  const inputs = node?.input ?? [];
  const shape = graph.initializer.find((t) => t.name === inputs[1]);
  if (!shape?.rawData) throw new Error(`the demo talker has no ${BAKED_NODE} with a constant shape`);
  const dims = Array.from(new BigInt64Array(Uint8Array.from(shape.rawData as Uint8Array).buffer));
  if (!dims.includes(-1n)) throw new Error(`${BAKED_NODE}'s shape ${dims.join(',')} has no -1 to bake`);
  const baked = onnx.TensorProto.create({
    name: 'baked.kv_shape',
    dataType: onnx.TensorProto.DataType.INT64,
    dims: [dims.length],
    rawData: new Uint8Array(BigInt64Array.from(dims, (d) => (d === -1n ? BigInt(total) : d)).buffer),
  });
  graph.initializer.push(baked);
  inputs[1] = 'baked.kv_shape';
  await writeFile(path, onnx.ModelProto.encode(model).finish());
  return path;
}
