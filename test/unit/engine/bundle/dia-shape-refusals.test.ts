import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError } from '../../../../electron/common/errors.js';
import { loadBundle, type LoadedBundle } from '../../../../electron/engine/bundle/load-bundle.js';
import { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { readNativeModel } from '../../../../electron/engine/native/native-weights.js';

let page = '';
let root = '';
let n = 0;
beforeAll(async () => {
  page = await readFile(join(import.meta.dirname, '../../../../docs/bundle-format.md'), 'utf8');
  root = await mkdtemp(join(tmpdir(), 'dia-shape-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

function example(name: string): BundleManifest {
  const found = new RegExp(`<!-- example: ${name} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(page);
  if (!found) throw new Error(`docs/bundle-format.md has no example "${name}"`);
  return JSON.parse(found[1]) as BundleManifest;
}

/** The first line loading the Dia example (edited) gives: the rules across fields run before any model file is read. */
async function refusal(edit: (m: BundleManifest) => void): Promise<string> {
  const m = example('bundle-json-dia');
  edit(m);
  const dir = join(root, `b${n++}`);
  await mkdir(dir);
  await writeFile(join(dir, 'bundle.json'), JSON.stringify(m));
  const error = await loadBundle(dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BundleError);
  return (error as BundleError).message.replace(`${join(dir, 'bundle.json')}: `, '');
}

describe('the Dia shape in bundle.json (talker.codebooks "all", encoder, codebookDelays)', () => {
  it('the schema accepts the Dia example and the bundles written before it', () => {
    for (const name of ['bundle-json-dia', 'bundle-json-demo', 'bundle-json-qwen3']) expect(BundleManifest.safeParse(example(name)).success).toBe(true);
  });

  it('the unedited Dia example passes every rule and the tensor contracts (it fails only on its missing model files)', async () => {
    expect(await refusal(() => undefined)).toMatch(/encoder\.eager\.fp32\.onnx: model file of encoder eager-fp32: cannot read \(no such file or folder\)$/);
  });

  it('refuses each broken rule in one line naming the field', async () => {
    expect(await refusal((m) => (m.codePredictor = example('bundle-json-demo').codePredictor))).toBe(
      'codePredictor is set beside talker.codebooks "all": the talker already emits every codebook; leave codePredictor out',
    );
    expect(await refusal((m) => delete m.talker.codebooks)).toBe('codePredictor is required unless talker.codebooks is "all" (the talker gives codebook 0, the code predictor the rest)');
    expect(await refusal((m) => delete m.encoder)).toBe(
      'talker.codebooks "all" needs an encoder: the engine runs this shape (Dia) with the text read by an encoder, the talker starting from the BOS frame',
    );
    expect(await refusal((m) => (m.codebookDelays = [0, 2, 3]))).toBe('codebookDelays has 3 entries, codebooks is 4: one delay per codebook');
    expect(await refusal((m) => (m.codebookDelays = [1, 2, 3, 4]))).toBe(
      "codebookDelays[0] must be 0 (found 1): codebook 0's EOS ends the take, the others follow it by their delays",
    );
    expect(await refusal((m) => delete m.specialCodes.pad)).toBe('codebookDelays needs specialCodes.eos and specialCodes.pad: each codebook emits EOS after its last frame, then PAD');
    expect(await refusal((m) => (m.talker.maxPositions = 12))).toBe('talker.maxPositions (12) must hold 1 + maxFrames + the largest codebook delay = 13 steps');
    expect(await refusal((m) => m.text.tokenizer === 'byte' && (m.text.maxBytes = 17))).toBe('encoder.maxPositions (16) must hold the longest text, 17 ids');
  });

  it('the talker export must declare logits [1, S, Q, vocab] and the encoder inputs', async () => {
    expect(
      await refusal((m) => {
        m.talker.exports['eager-fp32'].outputs[0].shape = [1, 'sequence_length', 67];
      }),
    ).toContain('"logits"');
    expect(
      await refusal((m) => {
        m.talker.exports['eager-fp32'].inputs.splice(3, 2);
      }),
    ).toContain('"encoder_hidden_states"');
  });

  it('backend=native (the demo architecture only) refuses it in one line, naming the fields', () => {
    const bundle = { dir: '/b', manifest: BundleManifest.parse(example('bundle-json-dia')) } as LoadedBundle;
    expect(() => readNativeModel(bundle)).toThrow(
      '/b: backend=native runs the demo architecture only; this bundle uses embed.table, talker.specialIds, talker.codebooks, encoder, codebookDelays (run it with backend=ort)',
    );
  });
});
