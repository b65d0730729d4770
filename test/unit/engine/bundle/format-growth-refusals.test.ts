import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError, InputError } from '../../../../electron/common/errors.js';
import { layoutLines } from '../../../../electron/engine/bundle/layout-summary.js';
import { loadBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import type { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { readNativeModel } from '../../../../electron/engine/native/native-weights.js';
import { tokenizeText } from '../../../../electron/engine/text-input.js';
import { editManifest, SMALL } from './small-bundle.js';
import { qwenRoot } from './qwen3-bundle.js';

let q: Awaited<ReturnType<typeof qwenRoot>>;
let good: string;
let n = 0;
beforeAll(async () => {
  q = await qwenRoot('format-growth-');
  good = await q.bundle('good', { presets: ['eager'] });
});
afterAll(() => q.dispose());

/** A copy of the good Qwen3-shaped bundle with `edit` applied to its bundle.json. */
async function edited(edit: (m: BundleManifest) => void): Promise<string> {
  const dir = join(q.root, `edit-${n++}`);
  await cp(good, dir, { recursive: true });
  await editManifest(dir, edit);
  return dir;
}

/** The one-line BundleError that loading `dir` gives, with the bundle.json path cut to "bundle.json". */
async function refusal(dir: string): Promise<string> {
  const error = await loadBundle(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BundleError);
  const message = (error as BundleError).message;
  expect(message).not.toContain('\n');
  return message.replace(`${join(dir, 'bundle.json')}: `, 'bundle.json: ').replace(`${dir}/`, '');
}

describe('talker vocabulary beyond codebook + EOS', () => {
  it('the good bundle loads', async () => {
    const b = await loadBundle(good);
    expect(b.manifest.talker.vocab).toBe(48);
    expect(b.tableFile?.dtype).toBe('float16');
  });

  it('vocab > V+1 without talker.specialIds is refused naming the field, the vocab and V', async () => {
    const dir = await edited((m) => delete m.talker.specialIds);
    expect(await refusal(dir)).toBe(
      'bundle.json: talker.specialIds is missing: talker.vocab (48) > codebook size (32) + 1, so ids 32..47 other than EOS (38) are not codes; declare them ("specialIds": {"suppress": "all-except-eos"}) so the engine masks them before sampling',
    );
  });

  it('without specialCodes.eos (a talker with no EOS logit, as CSM) the bundle loads, and ids from V up still need specialIds', async () => {
    const noEos = await loadBundle(await edited((m) => delete m.specialCodes.eos));
    expect(noEos.manifest.specialCodes).toEqual({ bos: 37 });
    expect(layoutLines(noEos.manifest)).toContain("talker logits: 48 = codebook 0's 32 codes + special ids 32..47 (8 named), masked before sampling, no EOS id (the frame count ends the loop)");
    const dir = await edited((m) => {
      delete m.specialCodes.eos;
      delete m.talker.specialIds;
    });
    expect(await refusal(dir)).toBe(
      'bundle.json: talker.specialIds is missing: talker.vocab (48) > codebook size (32) and there is no EOS id, so ids 32..47 are not codes; declare them ("specialIds": {"suppress": "all-except-eos"}) so the engine masks them before sampling',
    );
  });

  it('a named special id outside codebook size..vocab−1 is refused', async () => {
    const dir = await edited((m) => {
      m.talker.specialIds = { suppress: 'all-except-eos', names: { '5': 'codec_pad' } };
    });
    expect(await refusal(dir)).toBe('bundle.json: talker.specialIds.names["5"] is not a special id: special ids are 32..47 (codebook size 32, talker.vocab 48)');
  });

  it('codebookSizes: one per codebook, none above codebookSize', async () => {
    expect(await refusal(await edited((m) => (m.codebookSizes = [32, 32, 24])))).toBe('bundle.json: codebookSizes has 3 entries, codebooks is 4: one size per codebook');
    expect(await refusal(await edited((m) => (m.codebookSizes = [32, 32, 40, 16])))).toBe("bundle.json: codebookSizes[2] (40) exceeds codebookSize (32), the code predictor's logit width");
  });
});

describe('code predictor projection', () => {
  it('a code predictor hidden ≠ talker hidden without a projection is refused, saying how to declare one', async () => {
    const dir = await edited((m) => delete m.codePredictor!.projection);
    // The check across fields comes before the tensor lists (whose inputs_embeds are 32 wide).
    expect(await refusal(dir)).toBe(
      'bundle.json: codePredictor.hidden (16) must equal talker.hidden (32): position 0 is the talker\'s hidden state; declare codePredictor.projection {"from": 32, "to": 16} if the export projects its inputs',
    );
  });

  it('projection.from must be talker.hidden and projection.to codePredictor.hidden', async () => {
    expect(await refusal(await edited((m) => (m.codePredictor!.projection = { from: 16, to: 16 })))).toBe(
      'bundle.json: codePredictor.projection.from (16) must equal talker.hidden (32): the code predictor is fed the talker\'s hidden state and codec embeddings',
    );
    expect(await refusal(await edited((m) => (m.codePredictor!.projection = { from: 32, to: 32 })))).toBe('bundle.json: codePredictor.projection.to (32) must equal codePredictor.hidden (16)');
  });
});

describe('embed.table', () => {
  it('exactly one of embed.export and embed.table', async () => {
    expect(await refusal(await edited((m) => delete m.embed.table))).toBe('bundle.json: embed needs "export" (an ONNX embedding graph) or "table" (a file read by rows)');
    const both = await edited((m) => (m.embed.export = { file: 'embed.onnx', inputs: [{ name: 'input_ids', dtype: 'int64', shape: [1, 's'] }], outputs: [{ name: 'inputs_embeds', dtype: 'float32', shape: [1, 's', 32] }] }));
    expect(await refusal(both)).toBe('bundle.json: embed.export and embed.table are both set: give the embedding table one way');
  });

  it('codec rows per codebook fewer than the codes would let a code read the next codebook\'s rows', async () => {
    const dir = await edited((m) => {
      m.embed.codecRowsPerCodebook = 31;
      m.specialCodes.bos = 5; // so that the BOS row check (first) passes
    });
    expect(await refusal(dir)).toBe(
      "bundle.json: embed.codecRowsPerCodebook (31) must be at least codebookSize (32): code k of codebook c is row codecRowOffset + c × codecRowsPerCodebook + k, so larger codes would read the next codebook's rows",
    );
  });

  it('too few rows for the layout', async () => {
    // 262 text rows + 4 codebooks × 48 codec rows = 454.
    expect(await refusal(await edited((m) => m.embed.table && (m.embed.table.rows = 400)))).toBe('bundle.json: embed.table.rows (400) must hold codecRowOffset + codebooks × codecRowsPerCodebook = 454 rows');
  });

  it('a safetensors header that disagrees with bundle.json: tensor name, dtype, shape', async () => {
    const t = (m: BundleManifest) => m.embed.table as NonNullable<BundleManifest['embed']['table']>;
    expect(await refusal(await edited((m) => (t(m).tensor = 'wte')))).toBe('embed.fp16.safetensors: no tensor "wte" (bundle.json embed.table.tensor); the file has "embed_tokens.weight"');
    expect(await refusal(await edited((m) => (t(m).dtype = 'float32')))).toBe('embed.fp16.safetensors: tensor "embed_tokens.weight" is F16, bundle.json embed.table.dtype says float32 (F32)');
    expect(await refusal(await edited((m) => (t(m).rows = 455)))).toBe('embed.fp16.safetensors: tensor "embed_tokens.weight" has shape [454,32], expected [455, 32] (embed.table.rows, talker.hidden)');
  });

  it('a raw file whose size is not rows × hidden × dtype size', async () => {
    const dir = await edited((m) => {
      const t = m.embed.table as NonNullable<BundleManifest['embed']['table']>;
      t.format = 'raw';
      delete t.tensor;
    });
    const size = (await readFile(join(dir, 'embed.fp16.safetensors'))).length;
    expect(await refusal(dir)).toBe(`embed.fp16.safetensors: ${size} bytes, but embed.table says 454 rows × 32 (talker.hidden) float16 = 29056 bytes`);
  });

  it('the table file joins the bundle hash: one changed byte, another hash', async () => {
    const dir = await edited(() => undefined);
    const before = (await loadBundle(dir)).hash;
    const path = join(dir, 'embed.fp16.safetensors');
    const bytes = await readFile(path);
    bytes[bytes.length - 1] ^= 1;
    await writeFile(path, bytes);
    expect((await loadBundle(dir)).hash).not.toBe(before);
  });
});

describe('prefill template and text conditioning', () => {
  it('text.bos beside a template is refused', async () => {
    expect(await refusal(await edited((m) => (m.text.bos = 256)))).toBe('bundle.json: text.bos (256) and talker.prefill are both set: the template places the special ids itself; leave text.bos out');
  });

  it('the text placed twice, or only its first token without conditioning', async () => {
    const twice = await edited((m) => m.talker.prefill?.template.push({ tokens: 'all' }));
    expect(await refusal(twice)).toBe('bundle.json: talker.prefill.template must place the text exactly once (one {"tokens": …} part), found 2');
    const noCond = await edited((m) => delete m.talker.textConditioning);
    expect(await refusal(noCond)).toBe(
      'bundle.json: talker.prefill.template places only the first text token ({"tokens": "first"}) but talker.textConditioning is not set: the rest of the text would never reach the talker',
    );
  });

  it('ids outside the text rows / codec rows', async () => {
    expect(await refusal(await edited((m) => m.talker.prefill?.template.unshift({ text: 262 })))).toBe('bundle.json: talker.prefill.template[0].text (262) must be a text embedding row (< embed.codecRowOffset 262)');
    expect(await refusal(await edited((m) => m.talker.prefill?.template.unshift({ codec: 48 })))).toBe('bundle.json: talker.prefill.template[0].codec (48) must be a codec row (< embed.codecRowsPerCodebook 48)');
    expect(await refusal(await edited((m) => m.talker.prefill && (m.talker.prefill.speakers = { x: 99 })))).toBe('bundle.json: talker.prefill.speakers["x"] (99) must be a codec row (< embed.codecRowsPerCodebook 48)');
    expect(await refusal(await edited((m) => m.talker.textConditioning && (m.talker.textConditioning.pad = 300)))).toBe('bundle.json: talker.textConditioning.pad (300) must be a text embedding row (< embed.codecRowOffset 262)');
  });

  it('talker.maxPositions must hold the template at its longest plus maxFrames', async () => {
    // instruction 40 + 8 single positions + first token 1 = 49; + 16 frames = 65 > 64.
    const dir = await edited((m) => m.text.tokenizer === 'byte' && (m.text.maxBytes = 40));
    expect(await refusal(dir)).toBe('bundle.json: talker.maxPositions (64) must hold the talker.prefill template at its longest (49 positions, text and instruction 40 tokens each) + maxFrames = 65');
  });

  it('byte-level text without a template still needs text.bos', async () => {
    const dir = await edited((m) => {
      delete m.talker.prefill;
      m.talker.prefill = undefined;
    });
    expect(await refusal(dir)).toBe('bundle.json: text.bos is required for byte-level text without a talker.prefill template');
  });

  it('a speaker the bundle does not name, and slots a bundle has no template for, are InputErrors', async () => {
    const b = await loadBundle(good);
    const speaker = (): unknown => tokenizeText('hi', b.manifest, b.tokenizer, { speaker: 'nobody' });
    expect(speaker).toThrow(InputError);
    expect(speaker).toThrow('speaker "nobody": this bundle names "vivian", "ryan" (bundle.json talker.prefill.speakers)');
    const plain = await q.bundle('plain', { config: SMALL, presets: ['eager'] });
    const p = await loadBundle(plain);
    expect(() => tokenizeText('hi', p.manifest, p.tokenizer, { instruction: 'calm' })).toThrow('instruction: this bundle has no prefill template (bundle.json talker.prefill), so nowhere to put it');
    // A template without a speaker slot refuses a speaker the same way.
    const noSlot = await edited((m) => m.talker.prefill && (m.talker.prefill.template = m.talker.prefill.template.filter((part) => !('slot' in part && part.slot === 'speaker'))));
    const ns = await loadBundle(noSlot);
    expect(() => tokenizeText('hi', ns.manifest, ns.tokenizer, { speaker: 'vivian' })).toThrow("speaker: this bundle's prefill template has no speaker slot (bundle.json talker.prefill.template)");
  });
});

describe('backend=native (the demo architecture only)', () => {
  it('refuses a bundle using the grown fields, naming them', async () => {
    const b = await loadBundle(good);
    expect(() => readNativeModel(b)).toThrow(
      `${b.dir}: backend=native runs the demo architecture only; this bundle uses embed.table, talker.specialIds, talker.prefill, talker.textConditioning, codePredictor.projection, codebookSizes (run it with backend=ort)`,
    );
  });
});
