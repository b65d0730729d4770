import { describe, expect, it } from 'vitest';
import { InputError } from '../../../../electron/common/errors.js';
import { BundleManifest } from '../../../../electron/engine/bundle/manifest.js';
import { demoBundleFiles } from '../../../../electron/engine/demo/build-demo-bundle.js';
import { DEMO, DEMO_SEED, type DemoConfig } from '../../../../electron/engine/demo/demo-config.js';
import { parseDemoConfig } from '../../../../electron/engine/demo/demo-config-schema.js';
import { SMALL } from '../bundle/small-bundle.js';

const clone = (c: DemoConfig): Record<string, unknown> => JSON.parse(JSON.stringify(c)) as Record<string, unknown>;

function refusal(json: unknown): string {
  try {
    parseDemoConfig(json, 'cfg.json');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('parseDemoConfig', () => {
  it('reads the demo config and the small test config as they are', () => {
    expect(parseDemoConfig(clone(DEMO), 'cfg.json')).toEqual(DEMO);
    expect(parseDemoConfig(clone(SMALL), 'cfg.json')).toEqual(SMALL);
  });

  it('names every bad field, with the file', () => {
    const c = clone(SMALL) as { talker: Record<string, unknown>; vocoder: Record<string, unknown>; sampleRate: unknown; extra?: unknown };
    c.talker.kvHeads = 0;
    c.vocoder.kernel = 'three';
    delete (c as Record<string, unknown>).sampleRate;
    c.extra = 1;
    const message = refusal(c);
    expect(message).toMatch(/^cfg\.json: not a demo config \(4 problems\): /);
    expect(message).toContain('talker.kvHeads: Too small: expected number to be >=1');
    expect(message).toContain('vocoder.kernel: Invalid input: expected number, received string');
    expect(message).toContain('sampleRate: Invalid input: expected number, received undefined');
    expect(message).toContain('(root): Unrecognized key: "extra"');
  });

  it('refuses sizes across fields that the builder or the bundle loader would refuse, in config terms', () => {
    const cases: [Partial<DemoConfig>, string][] = [
      [{ hopLength: 321 }, 'hopLength: hopLength × frameRate must equal sampleRate: 321 × 50 ≠ 16000'],
      [{ talker: { ...SMALL.talker, headDim: 7 } }, 'talker.headDim: talker.headDim (7) must be even: RoPE rotates halves'],
      [{ talker: { ...SMALL.talker, heads: 3, kvHeads: 2 } }, 'talker.heads: talker.heads (3) must be a multiple of kvHeads (2)'],
      // Issue 27: an unsupported ropeTheta ended the build with an internal error (exit 3).
      [{ talker: { ...SMALL.talker, ropeTheta: 1e6 } }, 'talker.ropeTheta: talker.ropeTheta (1000000) is not one the demo builder writes (10000)'],
      [{ codePredictor: { ...SMALL.codePredictor, ropeTheta: 500000 } }, 'codePredictor.ropeTheta: codePredictor.ropeTheta (500000) is not one the demo builder writes (10000)'],
      [{ eosCode: 31 }, 'eosCode: eosCode/bosCode must be codebookSize, codebookSize + 1 (32, 33)'],
      // 1 (BOS) + 32 bytes + 40 frames = 73 > talker.maxPositions 64
      [{ maxFrames: 40 }, 'talker.maxPositions: talker.maxPositions (64) must hold 1 + maxTextBytes + maxFrames = 73'],
      [{ codebooks: 5 }, 'codePredictor.maxPositions: codePredictor.maxPositions (4) must be at least codebooks (5)'],
      [{ overflow: { layer: 2, scale: 65536 } }, 'overflow.layer: overflow.layer (2) must be a talker layer (< 2)'],
      // Nyquist at 16 kHz is 8000 Hz.
      [{ vocoder: { ...SMALL.vocoder, f0Max: 8000 } }, 'vocoder.f0Max: vocoder.f0Max (8000) must be below the Nyquist frequency (sampleRate / 2 = 8000)'],
    ];
    for (const [change, expected] of cases) expect(refusal({ ...clone(SMALL), ...change }), JSON.stringify(change)).toContain(expected);
  });
});

describe('a bundle built from another config says what it is', () => {
  const manifest = (files: Map<string, Uint8Array>) => BundleManifest.parse(JSON.parse(new TextDecoder().decode(files.get('bundle.json'))));

  it('the demo config keeps the built-in name and description (its bytes are pinned by DEMO_BUNDLE_VERSION)', () => {
    const m = manifest(demoBundleFiles(DEMO_SEED, { config: parseDemoConfig(clone(DEMO), 'cfg.json'), presets: ['eager'], precisions: ['fp32'], faultVariants: false }));
    expect(m.name).toBe('demo');
    expect(m.description).toMatch(/^Built-in demo bundle, seed 20240611: untrained fixed-seed weights/);
  });

  it('another config is "demo-custom", described by its sizes', () => {
    const m = manifest(demoBundleFiles(7, { config: SMALL, presets: ['eager'], precisions: ['fp32'], faultVariants: false }));
    expect(m.name).toBe('demo-custom');
    expect(m.description).toBe(
      'Demo architecture, custom config (16000 Hz, 50 frames/s, 4 codebooks × 32 codes; talker 2 layers, hidden 32, 2/1 heads × 8; ' +
        'code predictor 3 layers, hidden 32, 4/4 heads × 12), seed 7: untrained fixed-seed weights, NOT a trained voice. ' +
        'It makes a voiced, pitched, vowel-like sound that follows the text length.',
    );
  });
});
