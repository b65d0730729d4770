import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleError } from '../../../electron/common/errors.js';
import { demoBundleFiles, writeDemoBundle } from '../../../electron/engine/demo/build-demo-bundle.js';
import { Engine } from '../../../electron/engine/engine.js';
import type { BundleManifest, TensorSpec } from '../../../electron/engine/bundle/manifest.js';

let root: string;
let good: string;
let n = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'bundle-test-'));
  good = join(root, 'good');
  await writeDemoBundle(good);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A copy of the good bundle with `edit` applied to its parsed bundle.json. */
async function variant(edit: (m: BundleManifest) => void): Promise<string> {
  const dir = join(root, `v${n++}`);
  await cp(good, dir, { recursive: true });
  const m = JSON.parse(await readFile(join(dir, 'bundle.json'), 'utf8'));
  edit(m);
  await writeFile(join(dir, 'bundle.json'), JSON.stringify(m));
  return dir;
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

describe('demo bundle bytes', () => {
  it('two builds give the same sha256 for every file', async () => {
    const other = join(root, 'again');
    await writeDemoBundle(other);
    const names = (await readdir(good)).sort();
    expect(names).toEqual((await readdir(other)).sort());
    expect(names.length).toBe(24); // 15 batch-1 model files, 8 batched exports (eager, graph at 2, 4, 8; talker and code predictor), bundle.json
    for (const name of names) expect(sha(await readFile(join(other, name))), name).toBe(sha(await readFile(join(good, name))));
  });

  it('another seed gives other weights (the check above can fail)', () => {
    const a = demoBundleFiles(1).get('talker.eager.fp32.onnx') as Uint8Array;
    const b = demoBundleFiles(2).get('talker.eager.fp32.onnx') as Uint8Array;
    expect(sha(a)).not.toBe(sha(b));
  });
});

describe('bad bundles are BundleErrors that name file, tensor, expected and found', () => {
  it('the good bundle opens', async () => {
    const e = await Engine.open(good);
    expect(e.info().talker.kvHeads).toBeLessThan(e.info().talker.heads);
    await e.close();
  });

  it('missing bundle.json', async () => {
    await expect(Engine.open(join(root, 'nowhere'))).rejects.toThrow(`${join(root, 'nowhere')}: no such folder`);
    await mkdir(join(root, 'empty'), { recursive: true });
    await expect(Engine.open(join(root, 'empty'))).rejects.toThrow(`no bundle.json in ${join(root, 'empty')} (not a bundle folder)`);
    await writeFile(join(root, 'plain-file'), 'x');
    await expect(Engine.open(join(root, 'plain-file'))).rejects.toThrow(`${join(root, 'plain-file')} is a file, not a folder; give a bundle folder (with bundle.json)`);
  });

  it('missing model file', async () => {
    const dir = await variant(() => undefined);
    await unlink(join(dir, 'code-predictor.graph.fp16.onnx'));
    await expect(Engine.open(dir)).rejects.toThrow(/code-predictor\.graph\.fp16\.onnx: model file of code-predictor graph-fp16: cannot read \(no such file or folder\)/);
  });

  it('wrong tensor name declared in the manifest', async () => {
    const dir = await variant((m) => {
      m.talker.exports['eager-fp32'].inputs[0].name = 'input_embeds';
    });
    const err = await Engine.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BundleError);
    expect(String((err as Error).message)).toMatch(/talker eager-fp32 \(talker\.eager\.fp32\.onnx\) must declare input "inputs_embeds" as float32 \[1, \?, 64\]; declared: "input_embeds"/);
  });

  it('manifest and model errors start with the full path inside the bundle folder, not a bare "bundle.json:"', async () => {
    const declared = await variant((m) => {
      m.talker.exports['eager-fp32'].inputs[0].name = 'input_embeds';
    });
    const e1 = (await Engine.open(declared).catch((e: unknown) => e)) as Error;
    expect(e1.message.startsWith(`${join(declared, 'bundle.json')}: talker eager-fp32`)).toBe(true);
    const swapped = await variant(() => undefined);
    await cp(join(good, 'talker.eager.fp16.onnx'), join(swapped, 'talker.eager.fp32.onnx'));
    const e2 = (await Engine.open(swapped).catch((e: unknown) => e)) as Error;
    expect(e2.message.startsWith(`${join(swapped, 'talker.eager.fp32.onnx')}: input "inputs_embeds"`)).toBe(true);
  });

  it('wrong rank declared', async () => {
    const dir = await variant((m) => {
      (m.talker.exports['graph-fp32'].inputs.find((t) => t.name === 'past_key_values.0.key') as TensorSpec).shape = [1, 2, 256];
    });
    await expect(Engine.open(dir)).rejects.toThrow(/talker graph-fp32 .* input "past_key_values\.0\.key": expected float32 \[1, 2, 256, 16\] \(required by bundle\.json's sizes and the export's key\), found float32 \[1, 2, 256\] in bundle\.json's own tensor list talker\.exports\["graph-fp32"\]\.inputs: rank 4 expected, rank 3 found/);
  });

  it('text limit + frame limit that overflow the talker buffer', async () => {
    // The demo: BOS + 128 bytes + 115 frames = 244 of 256 positions; 141 bytes make 1 + 141 + 115 = 257.
    const dir = await variant((m) => {
      if (m.text.tokenizer === 'byte') m.text.maxBytes = 141;
    });
    const err = await Engine.open(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BundleError);
    expect(String((err as Error).message)).toContain('talker.maxPositions (256) must hold 1 + text.maxBytes + maxFrames = 257');
  });

  it('wrong dtype declared', async () => {
    const dir = await variant((m) => {
      (m.vocoder.exports.fp32?.inputs.find((t) => t.name === 'phase0') as TensorSpec).dtype = 'float32';
    });
    await expect(Engine.open(dir)).rejects.toThrow(/vocoder fp32 \(vocoder\.fp32\.onnx\) input "phase0": expected float64 \[1\] \(required by bundle\.json's sizes and the export's key\), found float32 \[1\] in bundle\.json's own tensor list vocoder\.exports\["fp32"\]\.inputs: dtype float64 expected, float32 found/);
  });

  it('a model file whose tensors differ from the manifest (fp16 model under an fp32 entry)', async () => {
    const dir = await variant(() => undefined);
    await cp(join(good, 'talker.eager.fp16.onnx'), join(dir, 'talker.eager.fp32.onnx'));
    await expect(Engine.open(dir)).rejects.toThrow(/talker\.eager\.fp32\.onnx: input "inputs_embeds" \(talker eager-fp32\): expected float32 \[1, \?, 64\] \(bundle\.json\), found float16 \[1, \?, 64\] in the model/);
  });

  it('a model with a tensor name the manifest does not know', async () => {
    const dir = await variant(() => undefined);
    // The embed graph's only input is input_ids; put the vocoder file in its place.
    await cp(join(good, 'vocoder.fp32.onnx'), join(dir, 'embed.onnx'));
    await expect(Engine.open(dir)).rejects.toThrow(/embed\.onnx: input "input_ids" \(embed\) is declared in bundle\.json as int64 \[1, \?\] but the model has no such input; found: "audio_codes"/);
  });

  it('inconsistent sizes and schema errors', async () => {
    const kv = await variant((m) => {
      m.talker.kvHeads = 3;
    });
    await expect(Engine.open(kv)).rejects.toThrow(/talker\.heads \(4\) must be a multiple of talker\.kvHeads \(3\)/);
    const format = await variant((m) => {
      (m as { format: string }).format = 'tts-parity-bundle/9';
    });
    await expect(Engine.open(format)).rejects.toThrow(/bundle\.json: format: /);
  });
});
