import { describe, expect, it } from 'vitest';
import type { BundleManifest, NetworkExport } from '../../../../electron/engine/bundle/manifest.js';
import { GraphBuilder } from '../../../../electron/engine/onnx-builder/graph-builder.js';
import { openSession } from '../../../../electron/engine/ort-session.js';
import { checkExportGraph, smokeExport } from '../../../../electron/engine/smoke/smoke-export.js';

const H = 2;
/** Only these fields are read for an embed export: its id range and the hop. */
const m = { hopLength: 4, codebooks: 2, codebookSize: 3, embed: { codecRowOffset: 2, codecRowsPerCodebook: 3 } } as unknown as BundleManifest;
const ROWS = 2 + 2 * 3;
const EMBED: NetworkExport = {
  file: 'embed.onnx',
  inputs: [{ name: 'input_ids', dtype: 'int64', shape: [1, 'sequence_length'] }],
  outputs: [{ name: 'inputs_embeds', dtype: 'float32', shape: [1, 'sequence_length', H] }],
};

/** An embed network: ids [1, s] → rows [1, s, H] of a table, then `tail` (what the test breaks). */
function embedModel(tail: (g: GraphBuilder, rows: string) => string): Uint8Array {
  const g = new GraphBuilder('embed');
  const ids = g.input('input_ids', 'int64', [1, 's']);
  const table = g.init('table', { dtype: 'float32', dims: [ROWS, H], data: Array.from({ length: ROWS * H }, (_, i) => i / 10) });
  g.output(tail(g, g.node('Gather', [table, ids], { name: 'gather' })), 'inputs_embeds', 'float32', [1, 's', H]);
  return g.toBytes();
}

async function smoke(model: Uint8Array, exp = EMBED, label = 'embed'): Promise<string> {
  const { session } = await openSession(model, { optimize: false, ep: 'cpu', name: { label, file: `/b/${exp.file}` } });
  try {
    return await smokeExport(m, '/b', { label, exp, model, session });
  } finally {
    await session.release();
  }
}

describe('smokeExport', () => {
  it('a well-made export passes: it runs at each size with the declared outputs, finite', async () => {
    expect(await smoke(embedModel((_, rows) => rows))).toBe('embed (embed.onnx): 2 runs (S=1, S=3): outputs at the sizes fed, finite; every declared input read');
  });

  it('a length baked into a Reshape: the failing node, the sizes and the feeds', async () => {
    const baked = embedModel((g, rows) => g.node('Reshape', [rows, g.init('shape', { dtype: 'int64', dims: [3], data: [1n, 3n, BigInt(H)] })], { name: 'baked' }));
    await expect(smoke(baked)).rejects.toThrow(
      /^smoke: embed \(\/b\/embed\.onnx\), at sequence length 1 \(random inputs, seed 24301\): ONNX Runtime failed in node "baked" \(Reshape\) fed input_ids int64 \[1, 1\]: .*requested shape:\{1,3,2\}; fix: a length baked into the export/,
    );
  });

  it('an output of the wrong size without any failure (a size baked into an Expand)', async () => {
    const fixed = embedModel((g, rows) => g.node('Expand', [g.node('ReduceMean', [rows], { attrs: { axes: [1], keepdims: 1 } }), g.init('to', { dtype: 'int64', dims: [3], data: [1n, 3n, BigInt(H)] })]));
    await expect(smoke(fixed)).rejects.toThrow(
      'smoke: embed (/b/embed.onnx), at sequence length 1 (random inputs, seed 24301): output "inputs_embeds" is [1, 3, 2], expected [1, 1, 2] for these sizes; fix: a size baked into the export',
    );
  });

  it('NaN or Inf in an output on ordinary inputs', async () => {
    const nan = embedModel((g, rows) => g.node('Log', [g.node('Neg', [g.node('Add', [rows, g.init('one', { dtype: 'float32', dims: [], data: [1] })])])]));
    await expect(smoke(nan)).rejects.toThrow(/^smoke: embed \(\/b\/embed\.onnx\), at sequence length 1 \(random inputs, seed 24301\): output "inputs_embeds" has 2 NaN\/Inf values of 2 on inputs uniform in \[-1, 1\); fix:/);
  });

  it('a declared input that no node reads', async () => {
    const g = new GraphBuilder('decoder');
    const x = g.input('inputs_embeds', 'float32', [1, 's', H]);
    g.input('position_ids', 'int64', [1, 's']);
    g.output(g.node('Neg', [x]), 'logits', 'float32', [1, 's', H]);
    const exp: NetworkExport = {
      file: 'talker.onnx',
      inputs: [
        { name: 'inputs_embeds', dtype: 'float32', shape: [1, 'sequence_length', H] },
        { name: 'position_ids', dtype: 'int64', shape: [1, 'sequence_length'] },
      ],
      outputs: [{ name: 'logits', dtype: 'float32', shape: [1, 'sequence_length', H] }],
    };
    await expect(smoke(g.toBytes(), exp, 'talker eager-fp32')).rejects.toThrow(
      'smoke: talker eager-fp32 (/b/talker.onnx): declared input "position_ids" is read by no node of the graph, so the engine\'s values for it change nothing; fix: the exported forward ignores it',
    );
  });
});

describe('checkExportGraph: graph exports declare fixed output shapes in the file', () => {
  const exp: NetworkExport = {
    file: 'talker.graph.onnx',
    inputs: [{ name: 'inputs_embeds', dtype: 'float32', shape: [1, 1, H] }],
    outputs: [{ name: 'logits', dtype: 'float32', shape: [1, 1, H] }],
  };
  const model = (outDims: (number | string)[]) => {
    const g = new GraphBuilder('graph');
    g.output(g.node('Neg', [g.input('inputs_embeds', 'float32', [1, 1, H])]), 'logits', 'float32', outDims);
    return g.toBytes();
  };
  const check = async (bytes: Uint8Array) => {
    const { session } = await openSession(bytes, { optimize: true, ep: 'cpu' });
    try {
      checkExportGraph({ label: 'talker graph-fp32', exp, model: bytes, session }, '/b/talker.graph.onnx');
    } finally {
      await session.release();
    }
  };

  it('refuses a symbolic output dimension, even where ONNX Runtime infers it', async () => {
    await expect(check(model([1, 'sequence_length', H]))).rejects.toThrow(
      'smoke: talker graph-fp32 (/b/talker.graph.onnx): output "logits" is declared [1, sequence_length, 2] in the model file, expected fixed [1, 1, 2] (bundle.json); fix: a graph export\'s outputs must be pinned',
    );
  });

  it('passes fixed ones', async () => {
    await expect(check(model([1, 1, H]))).resolves.toBeUndefined();
  });
});
