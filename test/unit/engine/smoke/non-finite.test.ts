import { open } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogitStats, StepRecord } from '../../../../electron/common/trace/step-record.js';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { toHalfBits } from '../../../../electron/engine/numeric/float16.js';
import { checkEagerGraphAgreement } from '../../../../electron/engine/smoke/eager-graph-agreement.js';
import { checkTableFinite } from '../../../../electron/engine/smoke/table-finite.js';
import type { SynthesisResult } from '../../../../electron/engine/types.js';
import { qwenRoot } from '../bundle/qwen3-bundle.js';

// Issue 27 item 5: `bundle check --smoke` passed a bundle whose text-embedding table was all NaN ("logits
// within NaN relative … smoke OK"): NaN compared false with the tolerance, and the table itself was never
// looked at (the per-export runs feed random embeddings). Non-finite logits, NaN/Inf in any stage of the
// agreement runs, and any NaN/Inf in an embed.table now fail the smoke check.

const m = {
  text: { tokenizer: 'byte', bos: 256, framesPerChar: 0.9, maxBytes: 128 },
  talker: { exports: { 'eager-fp32': { file: 't.e.onnx' }, 'graph-fp32': { file: 't.g.onnx' } } },
  codePredictor: { exports: { 'eager-fp32': { file: 'c.e.onnx' }, 'graph-fp32': { file: 'c.g.onnx' } } },
  vocoder: { exports: { fp32: { file: 'v.onnx' } } },
} as unknown as BundleManifest;
const counts = (talker = 0, codePredictor = 0, vocoder = 0) => ({ talker, codePredictor, vocoder });
const row = (v: number): LogitStats => ({ mean: v, std: v, min: v, max: v, argmax: 0, top5: [{ id: 0, logit: v }] });
const steps = (v: number): StepRecord[] => [1, 2, 3].map((step) => ({ step, logits: row(v), codes: [1, 2], codePredictorLogits: [row(v)] }));
const run = (s: StepRecord[], numerics = { nan: counts(), inf: counts() }) => () => Promise.resolve({ steps: s, numerics } as SynthesisResult);

describe('eager vs graph: non-finite values fail', () => {
  it.each([
    ['NaN logits in both runs (NaN - NaN is NaN, never above a tolerance)', steps(Number.NaN), steps(Number.NaN)],
    ['+Inf logits in both runs (Inf - Inf is NaN)', steps(Infinity), steps(Infinity)],
    ['NaN in the graph run only', steps(1), steps(Number.NaN)],
  ])('%s', async (_what, eager, graph) => {
    let call = 0;
    const synthesize = () => run(call++ === 0 ? eager : graph)();
    await expect(checkEagerGraphAgreement(m, synthesize, 'fp32')).rejects.toThrow(/^smoke: eager and graph disagree at step 1 in the talker .*differ by Infinity relative/);
  });

  it.each([
    ['NaN in the talker', { nan: counts(5), inf: counts() }, 'talker 5 NaN'],
    ['Inf in the vocoder', { nan: counts(), inf: counts(0, 0, 2) }, 'vocoder 2 Inf'],
    ['both in the code predictor', { nan: counts(0, 1), inf: counts(0, 3) }, 'codePredictor 1 NaN and 3 Inf'],
  ])('a run with %s, whatever its logits, fails naming the stage', async (_what, numerics, words) => {
    await expect(checkEagerGraphAgreement(m, run(steps(1), numerics), 'fp32')).rejects.toThrow(`produced non-finite values: ${words}`);
  });
});

describe('embed.table: every value must be finite', () => {
  let q: Awaited<ReturnType<typeof qwenRoot>>;
  let dir: string;
  beforeAll(async () => {
    q = await qwenRoot('table-finite-');
    dir = await q.bundle('good', { presets: ['eager'] });
  }, 120_000);
  afterAll(() => q.dispose());

  /** Overwrites table values (float16) from row `row` on, `count` values, with `value`; returns the loaded bundle. */
  async function poisoned(row: number, count: number | 'all', value: number) {
    const b = await loadBundle(dir);
    const t = b.tableFile!;
    const n = count === 'all' ? t.rows * t.width : count;
    const bits = Buffer.alloc(2 * n);
    for (let i = 0; i < n; i++) bits.writeUInt16LE(toHalfBits(value), 2 * i);
    const fh = await open(t.path, 'r+');
    await fh.write(bits, 0, bits.length, t.dataOffset + row * t.rowBytes);
    await fh.close();
    return loadBundle(dir);
  }

  it('the clean table passes', async () => {
    const b = await loadBundle(dir);
    expect(checkTableFinite(b.tableFile!, b.manifest, 'table')).toMatch(/every value finite$/);
  });

  it.each([
    ['all NaN', 0, 'all' as const, Number.NaN, /: \d+ NaN\/Inf values of \d+, the first in row 0;/],
    ['one +Inf in the last row', -1, 1, Infinity, /: 1 NaN\/Inf value of \d+, the first in row (\d+);/],
    ['-Inf in row 7', 7, 3, -Infinity, /: 3 NaN\/Inf values of \d+, the first in row 7;/],
  ])('%s: refused naming the first row and the count', async (_what, row, count, value, words) => {
    const clean = await loadBundle(dir);
    const at = row < 0 ? clean.tableFile!.rows - 1 : row;
    const b = await poisoned(at, count, value);
    expect(() => checkTableFinite(b.tableFile!, b.manifest, 'table')).toThrow(words);
    // Clean it again for the next case.
    await poisoned(0, 'all', 0);
  });
});
