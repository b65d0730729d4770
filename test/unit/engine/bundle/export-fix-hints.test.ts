import { describe, expect, it } from 'vitest';
import { checkExportAgainstSession } from '../../../../electron/engine/bundle/check-tensors.js';
import type { NetworkExport } from '../../../../electron/engine/bundle/manifest.js';
import type { FoundTensor } from '../../../../electron/engine/ort-session.js';

/** A one-layer code predictor's graph export (what bundle.json declares), and the same as a model would report it. */
const exp: NetworkExport = {
  file: 'cp.graph.onnx',
  inputs: [
    { name: 'generation_step', dtype: 'int64', shape: [1] },
    { name: 'inputs_embeds', dtype: 'float32', shape: [1, 1, 8] },
    { name: 'position_ids', dtype: 'int64', shape: [1, 1] },
  ],
  outputs: [{ name: 'logits', dtype: 'float32', shape: [1, 1, 4] }],
};
const asFound = (t: NetworkExport['inputs']): FoundTensor[] => t.map((x) => ({ name: x.name, dtype: x.dtype, shape: x.shape }));

describe('load-time messages for torch.onnx.export mistakes say what to fix', () => {
  it('a declared input dropped by the exporter (every input the model has is declared)', () => {
    const found = { inputs: asFound(exp.inputs.filter((t) => t.name !== 'generation_step')), outputs: asFound(exp.outputs) };
    expect(() => checkExportAgainstSession('code-predictor graph-fp32', exp, found)).toThrow(
      'cp.graph.onnx: input "generation_step" (code-predictor graph-fp32) is declared in bundle.json as int64 [1] but the model has no such input; found: "inputs_embeds", "position_ids"; fix: the exporter dropped it because the exported forward never reads it',
    );
  });

  it('not when the model has inputs of its own (another network in the file, not a dropped input)', () => {
    const found = { inputs: [{ name: 'audio_codes', dtype: 'int64', shape: [1, 'frames', 4] }], outputs: asFound(exp.outputs) };
    expect(() => checkExportAgainstSession('code-predictor graph-fp32', exp, found)).toThrow(/but the model has no such input; found: "audio_codes"$/);
  });

  it('a graph export with fixed inputs and a symbolic output: pin the output, not "is this an eager export?"', () => {
    const found = { inputs: asFound(exp.inputs), outputs: [{ name: 'logits', dtype: 'float32', shape: [1, 'Reshape_out_1', 4] }] };
    expect(() => checkExportAgainstSession('code-predictor graph-fp32', exp, found)).toThrow(
      'dimension 1: expected fixed 1, found symbolic "Reshape_out_1": the model\'s inputs are all fixed, but this graph export left the output\'s size symbolic; fix: pin it',
    );
    const dynamicInputs = { inputs: asFound(exp.inputs).map((t) => (t.name === 'inputs_embeds' ? { ...t, shape: [1, 'sequence_length', 8] } : t)), outputs: found.outputs };
    expect(() => checkExportAgainstSession('code-predictor graph-fp32', exp, dynamicInputs)).toThrow(/is this a dynamic-shape eager export\?\)$/);
  });
});
