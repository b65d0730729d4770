import { describe, expect, it } from 'vitest';
import { ParityError } from '../../../electron/common/errors.js';
import { GraphBuilder } from '../../../electron/engine/onnx-builder/graph-builder.js';
import { atStep, describeFeeds, OrtRunError, parseOrtFailure } from '../../../electron/engine/ort-run-error.js';
import { f32Tensor, i64Tensor, openSession, run, type Feeds } from '../../../electron/engine/ort-session.js';

const NAME = { label: 'talker eager-fp32', file: '/bundle/talker.onnx' };

/** x [1, n] reshaped to a fixed [1, 3]: runs only at n = 3, as a traced example length does. */
function bakedReshape(): Uint8Array {
  const g = new GraphBuilder('baked');
  const x = g.input('x', 'float32', [1, 'n']);
  const shape = g.init('shape', { dtype: 'int64', dims: [2], data: [1n, 3n] });
  g.output(g.node('Reshape', [x, shape], { name: '/Reshape_3' }), 'y', 'float32', [1, 'n']);
  return g.toBytes();
}

/** ids [1, n] into a 4-row table. */
function lookup(): Uint8Array {
  const g = new GraphBuilder('lookup');
  const ids = g.input('ids', 'int64', [1, 'n']);
  const table = g.init('table', { dtype: 'float32', dims: [4, 2], data: [0, 1, 2, 3, 4, 5, 6, 7] });
  g.output(g.node('Gather', [table, ids], { name: '/embed/Gather' }), 'rows', 'float32', [1, 'n', 2]);
  return g.toBytes();
}

async function failure(model: Uint8Array, feeds: Feeds): Promise<OrtRunError> {
  const { session } = await openSession(model, { optimize: false, ep: 'cpu', name: NAME });
  try {
    await run(session, feeds);
  } catch (error) {
    return error as OrtRunError;
  } finally {
    await session.release();
  }
  throw new Error('the run did not fail');
}

describe('OrtRunError: ONNX Runtime failures during a run', () => {
  it('a node failure names the export, the node and op ORT reports, the feeds, and the fix; exit 2', async () => {
    const e = await failure(bakedReshape(), { x: f32Tensor(new Float32Array(2), [1, 2]) });
    expect(e).toBeInstanceOf(OrtRunError);
    expect(e.kind).toBe('bundle');
    expect(e.exitCode).toBe(2);
    expect(e.failure.opType).toBe('Reshape');
    expect(e.failure.node).toBe('/Reshape_3');
    // ORT's own words, without its C++ file:line and function.
    expect(e.failure.detail).toMatch(/^input_shape_size == requested_shape_size was false\. The input tensor cannot be reshaped to the requested shape\. Input shape:\{1,2\}, requested shape:\{1,3\}$/);
    expect(e.message).toBe(
      `talker eager-fp32 (/bundle/talker.onnx): ONNX Runtime failed in node "/Reshape_3" (Reshape) fed x float32 [1, 2]: ${e.failure.detail}; ` +
        'fix: a length baked into the export: GQA written with repeat_interleave (torch.onnx.export traces the example length into a Reshape)? Use expand + reshape with sizes taken from tensor.shape, re-export, and run `parity bundle check DIR --smoke`',
    );
    expect(e.where).toBe('/bundle/talker.onnx');
  });

  it('an index past a table gets the index hint', async () => {
    const e = await failure(lookup(), { ids: i64Tensor(BigInt64Array.of(9n), [1, 1]) });
    expect(e.failure).toMatchObject({ opType: 'Gather', node: '/embed/Gather' });
    expect(e.message).toContain('fix: an index beyond a table: position_ids past a table of maxPositions rows, or an id past the embedding rows');
  });

  it('a run refused before any node (the engine fed what the checked model does not take) is internal, exit 3', async () => {
    const e = await failure(lookup(), { wrong: i64Tensor(BigInt64Array.of(0n), [1, 1]) });
    expect(e.kind).toBe('internal');
    expect(e.exitCode).toBe(3);
    expect(e.message).toMatch(/^internal error \(the engine fed what the model refuses; please report it\): talker eager-fp32 \(\/bundle\/talker\.onnx\): ONNX Runtime refused the run fed wrong int64 \[1, 1\]: .*ids/);
  });

  it('atStep places an error once: the innermost step wins; other errors pass unchanged', async () => {
    const e = await failure(bakedReshape(), { x: f32Tensor(new Float32Array(2), [1, 2]) });
    const placed = await atStep('step 3', () => atStep('step 2', () => Promise.reject(e))).catch((x: unknown) => x as OrtRunError);
    expect(placed.at).toBe('step 2');
    expect(placed.message).toMatch(/^talker eager-fp32 \(\/bundle\/talker\.onnx\), step 2: ONNX Runtime failed in node/);
    const other = new ParityError('input', 'x');
    await expect(atStep('step 1', () => Promise.reject(other))).rejects.toBe(other);
  });
});

describe('parseOrtFailure', () => {
  it('reads op, node and message from ORT 1.30 texts, dropping the source location and C++ function', () => {
    // As ORT printed it for a GQA talker exported with repeat_interleave (the report).
    expect(parseOrtFailure("Non-zero status code returned while running MatMul node. Name:'/MatMul_3' Status Message: matmul_helper.h:142 Compute left operand cannot broadcast on dim 1")).toEqual({
      opType: 'MatMul',
      node: '/MatMul_3',
      detail: 'left operand cannot broadcast on dim 1',
    });
    // A debug build names the function with its signature.
    expect(
      parseOrtFailure(
        "Non-zero status code returned while running Reshape node. Name:'r' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/tensor/reshape_helper.h:47 onnxruntime::ReshapeHelper::ReshapeHelper(const onnxruntime::TensorShape&, onnxruntime::TensorShapeVector&, bool) input_shape_size == size was false. Bad.",
      ).detail,
    ).toBe('input_shape_size == size was false. Bad.');
    // No location: the message is kept whole.
    expect(parseOrtFailure("Non-zero status code returned while running Add node. Name:'a' Status Message: Some text").detail).toBe('Some text');
    expect(parseOrtFailure('input \'x\' is missing in \'feeds\'.')).toEqual({ detail: "input 'x' is missing in 'feeds'." });
  });
});

describe('describeFeeds', () => {
  const t = (type: string, dims: number[]) => ({ type, dims });
  it('collapses the KV inputs of every layer into one entry when they share a shape', () => {
    const kv = { 'past_key_values.0.key': t('float32', [1, 2, 4, 8]), 'past_key_values.0.value': t('float32', [1, 2, 4, 8]), 'past_key_values.1.key': t('float32', [1, 2, 4, 8]), 'past_key_values.1.value': t('float32', [1, 2, 4, 8]) };
    expect(describeFeeds({ inputs_embeds: t('float32', [1, 3, 32]), ...kv })).toBe('inputs_embeds float32 [1, 3, 32], past_key_values.{0..1}.key|value float32 [1, 2, 4, 8]');
  });
  it('lists them one by one when they differ', () => {
    expect(describeFeeds({ 'past_key_values.0.key': t('float32', [1, 2, 4, 8]), 'past_key_values.0.value': t('float32', [1, 2, 5, 8]) })).toBe(
      'past_key_values.0.key float32 [1, 2, 4, 8], past_key_values.0.value float32 [1, 2, 5, 8]',
    );
  });
});
