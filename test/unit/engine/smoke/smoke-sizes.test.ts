import { describe, expect, it } from 'vitest';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { smokeSizes, symbolicDim } from '../../../../electron/engine/smoke/smoke-sizes.js';

/** Only the decoders' maxPositions are read. */
const manifest = (talker: number, codePredictor: number) => ({ talker: { maxPositions: talker }, codePredictor: { maxPositions: codePredictor } }) as unknown as BundleManifest;
const pairs = (m: BundleManifest, label: string) => smokeSizes(m, label).map((s) => [s.sequence, s.past]);

describe('smokeSizes', () => {
  it('eager decoders: two sequence lengths × two past lengths, so a traced example length fails at the others', () => {
    expect(pairs(manifest(256, 8), 'talker eager-fp32')).toEqual([[1, 0], [1, 4], [3, 0], [3, 4]]);
    expect(pairs(manifest(256, 8), 'code-predictor eager-fp16')).toEqual([[1, 0], [1, 4], [3, 0], [3, 4]]);
  });

  it('batched exports (bundle.json batch): a graph bucket runs as a graph export, the dynamic-batch one as eager', () => {
    expect(pairs(manifest(256, 8), 'talker batch graph-fp32@8')).toEqual([[1, 1], [1, 255]]);
    expect(pairs(manifest(256, 8), 'code-predictor batch eager-fp32')).toEqual([[1, 0], [1, 4], [3, 0], [3, 4]]);
  });

  it('never past maxPositions (RoPE tables and graph buffers have that many rows)', () => {
    expect(pairs(manifest(256, 4), 'code-predictor eager-fp32')).toEqual([[1, 0], [1, 3], [3, 0]]);
    expect(pairs(manifest(256, 2), 'code-predictor eager-fp32')).toEqual([[1, 0], [1, 1], [2, 0]]);
    for (const s of smokeSizes(manifest(5, 5), 'talker eager-fp32')) expect(s.sequence + s.past).toBeLessThanOrEqual(5);
  });

  it('graph decoders: one position at the second and the last row of the buffers', () => {
    expect(smokeSizes(manifest(256, 8), 'talker graph-fp32').map((s) => [s.sequence, s.past, s.text])).toEqual([
      [1, 1, 'position 1 of the 256-row buffers'],
      [1, 255, 'position 255 of the 256-row buffers'],
    ]);
  });

  it('vocoder: two frame counts, with and without left context; embed: two sequence lengths', () => {
    expect(smokeSizes(manifest(8, 8), 'vocoder fp32').map((s) => [s.frames, s.context])).toEqual([[2, 0], [2, 1], [5, 0], [5, 1]]);
    expect(smokeSizes(manifest(8, 8), 'embed').map((s) => s.sequence)).toEqual([1, 3]);
  });
});

describe('symbolicDim: a symbolic dimension by its place (the names in bundle.json are free)', () => {
  const s = { sequence: 3, past: 4, frames: 5, context: 1, text: '', short: '' };
  it.each([
    ['inputs_embeds', 1, 3],
    ['position_ids', 1, 3],
    ['logits', 1, 3],
    ['attention_mask', 1, 7],
    ['past_key_values.0.key', 2, 4],
    ['present.1.value', 2, 7],
    ['audio_codes', 1, 5],
    ['noise', 1, 5 * 320],
    ['audio', 1, 5 * 320],
    ['inputs_embeds', 0, 1],
  ])('%s dimension %i = %i', (name, index, value) => expect(symbolicDim(name, index, s, 320)).toBe(value));
});
