import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../electron/common/errors.js';
import { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import type { DemoConfig } from '../../../../electron/engine/demo/demo-config.js';
import { parseDemoConfig } from '../../../../electron/engine/demo/demo-config-schema.js';
import { QWEN3_SHAPED } from '../../../../electron/engine/demo/qwen3-shaped-config.js';

const json = (c: Partial<DemoConfig>): Record<string, unknown> => JSON.parse(JSON.stringify({ ...QWEN3_SHAPED, ...c })) as Record<string, unknown>;

function refusal(config: unknown): string {
  try {
    parseDemoConfig(config, 'q.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('the Qwen3-shaped demo config', () => {
  it('reads as it is', () => {
    expect(parseDemoConfig(json({}), 'q.json')).toEqual(QWEN3_SHAPED);
  });

  it('its rules, each on the config field', () => {
    const cases: [Partial<DemoConfig>, string][] = [
      [{ eosCode: 50 }, 'eosCode: eosCode (50) must be a special id of the talker vocabulary (32..47)'],
      [{ bosCode: 38 }, 'bosCode: bosCode (38) must differ from eosCode'],
      [{ talkerVocab: 33 }, 'talkerVocab: talkerVocab (33) must be at least codebookSize + 2 (34)'],
      [{ codebookSizes: [32, 33, 24, 16] }, 'codebookSizes.1: codebookSizes[1] (33) exceeds codebookSize (32)'],
      [{ codePredictorProjection: false }, 'codePredictor.hidden: codePredictor.hidden (16) must equal talker.hidden (32)'],
      [{ textVocab: 256 }, 'textVocab: textVocab (256) must be at least textBos + 1 with textBos ≥ 256'],
      [{ prefill: { template: [{ tokens: 'all' }, { text: 262 }] } }, 'prefill: talker.prefill.template[1].text (262) must be a text embedding row (< embed.codecRowOffset 262)'],
      [{ textConditioning: undefined }, 'prefill: talker.prefill.template places only the first text token'],
      [{ textConditioning: { pad: 999 } }, 'textConditioning: talker.textConditioning.pad (999) must be a text embedding row'],
      [{ specialCodeNames: { '3': 'x' } }, 'specialCodeNames: specialCodeNames["3"] is not a special id (32..47)'],
      // instruction 32 + 8 + 1 = 41 positions, + 40 frames = 81 > 64
      [{ maxFrames: 40 }, 'talker.maxPositions: talker.maxPositions (64) must hold the prefill template at its longest (41 positions) + maxFrames = 81'],
    ];
    for (const [change, expected] of cases) expect(refusal(json(change)), JSON.stringify(change)).toContain(expected);
  });

  it('builds a bundle.json that uses every field beyond the demo shape, named demo-custom with them listed', () => {
    const files = demoBundleFiles(7, { config: QWEN3_SHAPED, presets: ['eager'], precisions: ['fp32'], faultVariants: false });
    const m = BundleManifest.parse(JSON.parse(new TextDecoder().decode(files.get('bundle.json'))));
    expect(m.name).toBe('demo-custom');
    expect(m.description).toContain('; with talkerVocab, codebookSizes, codePredictorProjection, prefill, textConditioning, embedTable), seed 7');
    expect(m.talker.specialIds?.suppress).toBe('all-except-eos');
    expect(m.codebookSizes).toEqual([32, 32, 24, 16]);
    expect(m.codePredictor?.projection).toEqual({ from: 32, to: 16 });
    expect(m.talker.textConditioning).toEqual({ pad: 261, end: 260 });
    expect(m.text.bos).toBeUndefined();
    expect(m.embed.export).toBeUndefined();
    // 262 text rows + 4 × 48 codec rows, float16: 8-byte length + header + 454 × 32 × 2 bytes.
    expect(m.embed.table).toEqual({ file: 'embed.fp16.safetensors', format: 'safetensors', dtype: 'float16', rows: 454, tensor: 'embed_tokens.weight' });
    expect(files.has('embed.onnx')).toBe(false);
    const table = files.get('embed.fp16.safetensors') as Uint8Array;
    const headerLength = Number(new DataView(table.buffer, table.byteOffset).getBigUint64(0, true));
    expect(headerLength % 8).toBe(0);
    expect(table.length).toBe(8 + headerLength + 454 * 32 * 2);
  });
});
