import { GraphBuilder } from '../onnx-builder/graph-builder.js';
import { Ops } from '../onnx-builder/ops.js';
import { DEMO, type DemoConfig } from './demo-config.js';
import { weightSource, type Precision } from './decoder-models.js';

/**
 * Vocoder: code embeddings -> causal conv stack -> per-frame f0, harmonic amplitudes and noise gain
 * -> harmonic-plus-noise synthesis at 24 kHz, all in ONNX ops.
 *
 * Inputs: audio_codes [1, F, Q] int64; noise [1, F·hop] float32 (deterministic, keyed by sample index);
 * phase0 [1] float64 (oscillator phase in cycles at the start of frame `context_frames`);
 * context_frames [1] int64 (leading frames that are left context only).
 * Outputs: audio [1, F·hop] float32; end_phase [1] float64 (phase at the end of the last frame).
 *
 * Phase: within a frame a float32 CumSum over at most hop samples (< 21 cycles); across frames a
 * float64 CumSum of the per-frame totals, wrapped to [0, 1). A chunk starting from the carried phase
 * therefore rounds like the whole utterance does, which is what lets vocoder=stream match full.
 */
export function buildVocoder(seed: number, precision: Precision, cfg: DemoConfig = DEMO): Uint8Array {
  const v = cfg.vocoder;
  const Q = cfg.codebooks;
  const hop = cfg.hopLength;
  const K = v.harmonics;
  const C = v.channels;
  const g = new GraphBuilder(`vocoder-${precision}`);
  const o = new Ops(g, precision === 'fp16' ? 'float16' : 'float32', weightSource(seed, 'vocoder'));
  const f32 = new Ops(g, 'float32', weightSource(seed, 'vocoder'));
  const codes = g.input('audio_codes', 'int64', [1, 'frames', Q]);
  const noise = g.input('noise', 'float32', [1, 'samples']);
  const phase0 = g.input('phase0', 'float64', [1]);
  const context = g.input('context_frames', 'int64', [1]);

  const rows = Array.from({ length: Q }, (_, q) => q * (cfg.codebookSize + 2));
  const table = o.param('codec_embedding.weight', [Q * (cfg.codebookSize + 2), C], 1 / Math.sqrt(Q));
  const emb = g.node('Gather', [table, o.op('Add', [codes, o.ints(rows)])], { attrs: { axis: 0 }, name: 'embed' });
  let x = o.transpose(o.op('ReduceSum', [emb, o.ints([2])], { keepdims: 0 }), [0, 2, 1]);
  for (let l = 0; l < v.convLayers; l++) {
    x = g.within(`convs.${l}`, () => {
      const padded = o.op('Pad', [x, o.ints([0, 0, v.kernel - 1, 0, 0, 0])], { mode: 'constant' });
      const w = o.param('weight', [C, C, v.kernel], 1 / Math.sqrt(C * v.kernel));
      const y = o.op('Conv', [padded, w, o.param('bias', [C], 0.1)], { kernel_shape: [v.kernel] });
      return o.op('Add', [x, o.silu(y)]);
    });
  }
  const headW = o.param('head.weight', [3 + K, C, 1], 1 / Math.sqrt(C));
  let head = o.op('Conv', [x, headW, o.param('head.bias', [3 + K], 0.2)], { kernel_shape: [1] }, 'head');
  if (o.float !== 'float32') head = o.cast(head, 'float32');
  // frames on axis 0 from here: [F, 3 + K]
  const perFrame = o.op('Squeeze', [o.transpose(head, [0, 2, 1]), o.ints([0])]);

  return g.within('synth', () => {
    const col = (a: number, b: number): string => f32.slice(perFrame, [a], [b], [1]);
    const f0 = f32.op('Add', [f32.floatScalar(v.f0Min), f32.op('Mul', [f32.op('Sigmoid', [col(0, 1)]), f32.floatScalar(v.f0Max - v.f0Min)])], undefined, 'synth.f0');
    // Harmonic rolloff: -0.35 per harmonic before the softmax, so the spectrum falls like a voiced vowel.
    const rolloff = f32.constant('rolloff', 'float32', [K], Array.from({ length: K }, (_, k) => -0.35 * k));
    const gain = f32.op('Mul', [f32.op('Sigmoid', [col(1 + K, 2 + K)]), f32.floatScalar(0.3)]);
    const amps = f32.op('Mul', [f32.op('Softmax', [f32.op('Add', [col(1, 1 + K), rolloff])], { axis: 1 }), gain], undefined, 'synth.amps');
    const noiseGain = f32.op('Mul', [f32.op('Sigmoid', [col(2 + K, 3 + K)]), f32.floatScalar(0.02)]);

    const ramp = f32.constant(`ramp_${hop}`, 'float32', [1, hop], Array.from({ length: hop }, (_, i) => i / hop));
    const prev = (t: string): string => f32.g.node('Concat', [f32.slice(t, [0], [1], [0]), f32.slice(t, [0], [-1], [0])], { attrs: { axis: 0 } });
    /** Linear from the previous frame's value to this frame's across the hop: [F, n] -> [F, hop, n]. */
    const lerp = (t: string): string => {
      const p = prev(t);
      const d = f32.op('Unsqueeze', [f32.op('Sub', [t, p]), f32.ints([1])]);
      const r = f32.op('Unsqueeze', [ramp, f32.ints([2])]);
      return f32.op('Add', [f32.op('Unsqueeze', [p, f32.ints([1])]), f32.op('Mul', [d, r])]);
    };
    const f0s = f32.op('Squeeze', [lerp(f0), f32.ints([2])]);
    const inc = f32.op('Mul', [f0s, f32.floatScalar(1 / cfg.sampleRate)]);
    const within = f32.op('CumSum', [inc, f32.intScalar(1)], { exclusive: 1 }, 'synth.phase_within');
    const totals = f32.cast(f32.op('ReduceSum', [inc, f32.ints([1])], { keepdims: 0 }), 'float64');
    const excl = f32.op('CumSum', [totals, f32.intScalar(0)], { exclusive: 1 });
    const incl = f32.op('CumSum', [totals, f32.intScalar(0)]);
    const base = f32.g.node('Gather', [excl, context], { attrs: { axis: 0 } });
    const frac = (t: string): string => f32.op('Sub', [t, f32.op('Floor', [t])]);
    const offsets = frac(f32.op('Sub', [f32.op('Add', [excl, phase0]), base]));
    const last = f32.g.node('Gather', [incl, f32.ints([-1])], { attrs: { axis: 0 } });
    const endPhase = frac(f32.op('Sub', [f32.op('Add', [last, phase0]), base]));
    const phase = f32.op('Add', [f32.op('Unsqueeze', [f32.cast(offsets, 'float32'), f32.ints([1])]), within], undefined, 'synth.phase');
    const omega = f32.constant('omega', 'float32', [K], Array.from({ length: K }, (_, k) => 2 * Math.PI * (k + 1)));
    const sines = f32.op('Sin', [f32.op('Mul', [f32.op('Unsqueeze', [phase, f32.ints([2])]), omega])]);
    const harmonic = f32.op('ReduceSum', [f32.op('Mul', [sines, lerp(amps)]), f32.ints([2])], { keepdims: 0 });
    const noiseFrames = f32.reshape(noise, [-1, hop]);
    const noisy = f32.op('Mul', [noiseFrames, f32.op('Squeeze', [lerp(noiseGain), f32.ints([2])])]);
    const audio = f32.reshape(f32.op('Add', [harmonic, noisy], undefined, 'synth.mix'), [1, -1]);
    g.output(audio, 'audio', 'float32', [1, 'samples']);
    g.output(endPhase, 'end_phase', 'float64', [1]);
    return g.toBytes('TTS Parity Studio demo vocoder: harmonic-plus-noise (untrained, fixed-seed weights)');
  });
}
