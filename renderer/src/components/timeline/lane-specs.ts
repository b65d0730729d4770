import { codebookTicks, frequencyTicks, type LaneTick } from '../../../../electron/common/draw/axis-ticks.js';
import { drawCodesLane } from '../../../../electron/common/draw/codes.js';
import { drawLoudness, loudnessRange } from '../../../../electron/common/draw/loudness.js';
import { drawRuler } from '../../../../electron/common/draw/ruler.js';
import { paintSpectrogram } from '../../../../electron/common/draw/spectrogram.js';
import { drawWave, type WaveSource } from '../../../../electron/common/draw/wave.js';
import { fmt } from '../../lib/format.js';
import { spectrogramOfRange, type Spectrogram } from '../../../../electron/common/draw/spectrogram.js';
import { timeTicks } from '../../../../electron/common/draw/time-ticks.js';
import type { Viewport } from '../../../../electron/common/draw/viewport.js';
import { audioSelectors } from '../../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../../store/comparison/comparison-selectors.js';
import type { LaneInputs } from '../../store/view/lane-selectors.js';
import type { colors } from '../theme.js';
import { stepLane } from './step-lane.js';

type Colors = ReturnType<typeof colors>;

/** One lane of the timeline: a row of the given height whose canvas `draw` fills for the shared viewport. */
export interface LaneSpec {
  id: string;
  label: string;
  /** Accessible name of the canvas (what it shows). */
  aria: string;
  testId: string;
  height: number;
  /** Draws into a canvas already sized (CSS px; `ctx` scaled for the device pixel ratio unless `rawPixels`). */
  draw(ctx: CanvasRenderingContext2D, vp: Viewport, width: number, height: number): void;
  /** Spectrograms paint image pixels 1:1 with CSS pixels (so a test can read a row's level). */
  rawPixels?: boolean;
  /** Labels beside the lane: frequencies of a spectrogram, codebook numbers of the codes lane. */
  axis?: { ticks: LaneTick[]; testId: string };
  /** A spectrogram lane keeps what it last computed, for the readout's level at the pointer. */
  lastSpectrogram?: { spec?: Spectrogram };
}

const source = (samples: Float32Array | undefined, tiers: WaveSource['tiers'], total: number, sampleRate: number): WaveSource | undefined =>
  samples && samples.length > 0 ? { samples, tiers, total, sampleRate } : undefined;

/**
 * Lane heights (CSS px): the full set, and the short set for windows under 820 px high with audio. The codes lane
 * has a row per codebook (`codeRow` high, at most `codesMax` in all, so 16 or 32 codebooks still leave
 * the other lanes in view); twice that when the user asks for taller codes.
 */
const HEIGHTS = {
  full: { ab: 130, stacked: 160, diff: 64, spectrogram: 84, loudness: 56, stepRow: 26, codeRow: 12, codesMax: 192 },
  short: { ab: 76, stacked: 104, diff: 40, spectrogram: 56, loudness: 32, stepRow: 12, codeRow: 8, codesMax: 96 },
};

/**
 * The lanes for the comparison on screen, top to bottom; empty parts (no audio, no steps) are left out.
 * `s` holds only what the lanes are built from (laneSelectors.inputs), so what they read is what they follow.
 * `short`: a short window, where every lane is drawn lower so the whole timeline stays in view.
 */
export function laneSpecs(s: LaneInputs, c: Colors, fftReady: boolean, short = false): LaneSpec[] {
  const cmp = s.comparison;
  if (!cmp) return [];
  const rate = audioSelectors.sampleRate(s);
  const total = Math.max(cmp.a?.samples.length ?? 0, cmp.b?.samples.length ?? 0);
  // Without audio (traces only) there are no waveform lanes to make room for: the step and codes rows keep their full height.
  const px = short && total > 0 ? HEIGHTS.short : HEIGHTS.full;
  const a = source(cmp.a?.samples, audioSelectors.peaksA(s), total, rate);
  const b = source(cmp.b?.samples, audioSelectors.peaksB(s), total, rate);
  const diff = audioSelectors.difference(s);
  const diffSource = source(diff.samples, diff.tiers, total, rate);
  const frameRate = comparisonSelectors.frameRate(s);
  const lanes: LaneSpec[] = [
    {
      id: 'ruler',
      label: 'time',
      aria: 'Time ruler',
      testId: 'time-ruler',
      height: 22,
      draw: (ctx, vp, w, h) => {
        const { unit, ticks } = timeTicks(vp, w, rate);
        drawRuler(ctx, ticks, unit, w, h, c.fg, c.muted);
      },
    },
  ];
  if (a || b) {
    const stacked = s.layout === 'stacked';
    lanes.push({
      id: 'ab',
      label: stacked ? 'A / B' : 'A + B',
      aria: stacked ? 'Waveforms, A above B' : 'Waveforms of A and B, overlaid',
      testId: 'waveform-ab',
      height: stacked ? px.stacked : px.ab,
      // A and B named beside the lane in their colours (the colour key where the lanes are): stacked, beside each half.
      axis: stacked
        ? { ticks: [{ fromTop: 0.25, label: 'A', tone: 'a' }, { fromTop: 0.75, label: 'B', tone: 'b' }], testId: 'stack-axis' }
        : { ticks: [{ fromTop: 0.4, label: 'A', tone: 'a' }, { fromTop: 0.6, label: 'B', tone: 'b' }], testId: 'overlay-axis' },
      draw: (ctx, vp, w, h) => {
        const scale = { gain: s.ampGain, db: s.ampDb };
        if (stacked) {
          if (a) drawWave(ctx, a, vp, w, 0, h / 2, c.a, scale);
          if (b) drawWave(ctx, b, vp, w, h / 2, h / 2, c.b, scale);
          return;
        }
        ctx.globalAlpha = 0.75;
        if (a) drawWave(ctx, a, vp, w, 0, h, c.a, scale);
        if (b) drawWave(ctx, b, vp, w, 0, h, c.b, scale);
        ctx.globalAlpha = 1;
      },
    });
  }
  if (diffSource) {
    lanes.push({
      id: 'diff',
      label: `A − B ${diff.aligned ? 'aligned' : 'raw'} ×${diff.scale.toPrecision(2)}`,
      aria: `Difference ${diff.aligned ? 'aligned A − g·B(lag)' : 'raw A − B at lag 0'}, shown ×${diff.scale.toPrecision(3)}`,
      testId: 'waveform-diff',
      height: px.diff,
      draw: (ctx, vp, w, h) => drawWave(ctx, diffSource, vp, w, 0, h, c.d, { gain: diff.scale * s.ampGain, db: s.ampDb }),
    });
  }
  if (s.spectrogram && fftReady && rate > 0) {
    const spectro = (id: string, label: string, aria: string, samples: Float32Array | undefined) => {
      if (!samples || samples.length === 0) return;
      const last: { spec?: Spectrogram } = {};
      lanes.push({
        id,
        label,
        aria,
        testId: id,
        height: px.spectrogram,
        rawPixels: true,
        axis: { ticks: frequencyTicks(rate, short ? 2 : 4), testId: 'freq-axis' },
        lastSpectrogram: last,
        draw: (ctx, vp, w, h) => {
          // One column per 2 px: half the FFTs of one per pixel (bench:ui), finer than the 512-point window at most zooms.
          last.spec = spectrogramOfRange(samples, rate, vp.start * rate, vp.end * rate, Math.ceil(w / 2));
          const img = ctx.createImageData(w, h);
          paintSpectrogram(img, last.spec);
          ctx.putImageData(img, 0, 0);
        },
      });
    };
    spectro('specA', 'spectrum A', 'Spectrogram of A', cmp.a?.samples);
    spectro('specB', 'spectrum B', 'Spectrogram of B', cmp.b?.samples);
    spectro('specD', 'spectrum A−B', 'Spectrogram of the difference', diff.samples);
  }
  const curves = comparisonSelectors.curves(s);
  if (curves && curves.shortTermA.length + curves.shortTermB.length > 0) {
    const series = [
      { values: curves.shortTermA, hopMs: curves.hopMs, color: c.a },
      { values: curves.shortTermB, hopMs: curves.hopMs, color: c.b },
    ];
    const range = loudnessRange(series);
    lanes.push({
      id: 'loudness',
      label: `LUFS ${fmt(range.max, 0)}…${fmt(range.min, 0)}`,
      aria: 'Short-term loudness of A and B',
      testId: 'loudness-lane',
      height: px.loudness,
      draw: (ctx, vp, w, h) => drawLoudness(ctx, series, range, vp, w, h),
    });
  }
  const steps = stepLane(s, c, px.stepRow);
  if (steps) lanes.push(steps);
  const codes = comparisonSelectors.codes(s);
  if (codes && frameRate > 0) {
    const tall = s.codesTall ? 2 : 1;
    const height = Math.max(16, Math.min(px.codesMax * tall, codes.q * px.codeRow * tall));
    lanes.push({
      id: 'codes',
      label: 'codebook',
      aria: `Codes of A and B per frame, codebooks 0 to ${codes.q - 1} top to bottom, ${codes.differing} differing cells in red`,
      testId: 'codes-lane',
      height,
      axis: { ticks: codebookTicks(codes.q, height / codes.q), testId: 'codebook-axis' },
      draw: (ctx, vp, w, h) => drawCodesLane(ctx, codes, frameRate, vp, w, h, c.marker),
    });
  }
  return lanes;
}
