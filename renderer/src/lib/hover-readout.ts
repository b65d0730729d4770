import type { CodesData } from '../../../electron/common/draw/codes.js';
import { codePredictorText, deltaText, STAGE_LABELS, stageDelta, STAGES, type StepDelta, type VerdictCodebook } from '../../../electron/common/draw/step-delta.js';
import { fmt } from './format.js';

/** What the readout needs to say what is under the pointer (all optional: a comparison may lack any). */
export interface ReadoutSources {
  sampleRate: number;
  a?: Float32Array;
  b?: Float32Array;
  /** The difference on screen (aligned or raw). */
  d?: Float32Array;
  frameRate: number;
  deltas?: readonly StepDelta[];
  codes?: CodesData;
  loudness?: { hopMs: number; a: readonly (number | string)[]; b: readonly (number | string)[] };
  /** For a spectrogram lane: its level at the pointer, dB re full scale. */
  spectrogramDb?: number;
  /** The verdict's code-predictor codebook, said beside the worst one at its step (step-delta.ts codePredictorText). */
  verdictCodebook?: VerdictCodebook;
}

const value = (x: Float32Array | undefined, i: number) => (x && i >= 0 && i < x.length ? fmt(x[i], 5) : '—');
const lufs = (v: number | string | undefined) => fmt(typeof v === 'string' ? Number(v) : v, 1, ' LUFS');

/**
 * The hover readout, one line: time, the sample index under it and A, B and the difference there;
 * then what the lane under the pointer holds (frequency and level on a spectrogram, the step's
 * statistics and |Δ|, the codes of a cell, short-term loudness). `y` is 0 at the lane's top, 1 at its bottom.
 */
export function hoverReadout(time: number, lane: string, y: number, src: ReadoutSources): string {
  const parts = [`${time.toFixed(6)} s`];
  if (src.sampleRate > 0) {
    const n = Math.round(time * src.sampleRate);
    parts.push(`sample ${n}`, `A ${value(src.a, n)}`, `B ${value(src.b, n)}`, `A−B ${value(src.d, n)}`);
  }
  const step = src.frameRate > 0 ? Math.floor(time * src.frameRate) + 1 : undefined;
  if (lane.startsWith('spec') && src.sampleRate > 0) {
    const hz = (1 - y) * (src.sampleRate / 2);
    parts.push(`${hz >= 1000 ? `${(hz / 1000).toFixed(2)} kHz` : `${hz.toFixed(0)} Hz`}${src.spectrogramDb !== undefined ? ` ${fmt(src.spectrogramDb, 1, ' dB')}` : ''}`);
  } else if (lane === 'steps' && step !== undefined && src.deltas) {
    const d = src.deltas.find((s) => s.step === step);
    if (d) {
      const side = (x: StepDelta['a']) => (x ? `mean ${fmt(x.mean, 4)} max ${fmt(x.max, 4)}` : 'no step');
      parts.push(`step ${step}: A ${side(d.a)} · B ${side(d.b)}`, ...stageWords(d, src.verdictCodebook));
    }
  } else if (lane === 'codes' && step !== undefined && src.codes && step <= src.codes.frames) {
    const k = Math.min(src.codes.q - 1, Math.max(0, Math.floor(y * src.codes.q)));
    const i = (step - 1) * src.codes.q + k;
    parts.push(`frame ${step}, codebook ${k}: A ${src.codes.a[i]} · B ${src.codes.b[i]}${src.codes.a[i] === src.codes.b[i] ? '' : ' (differ)'}`);
  } else if (lane === 'loudness' && src.loudness) {
    const i = Math.round((time * 1000) / src.loudness.hopMs);
    parts.push(`short-term A ${lufs(src.loudness.a[i])} · B ${lufs(src.loudness.b[i])}`);
  } else if (step !== undefined) {
    parts.push(`frame ${step}`);
  }
  return parts.join(' · ');
}

/** Every stage's |Δ| at a step, exact: "talker |Δ| 0 (equal)", "code predictor |Δ| 0.02047 (codebook 2)". */
export function stageWords(d: StepDelta, verdict?: VerdictCodebook): string[] {
  return STAGES.flatMap((stage) => {
    const v = stageDelta(d, stage);
    if (!v) return [];
    return [`${STAGE_LABELS[stage]} |Δ| ${stage === 'code-predictor' ? codePredictorText(d, verdict) : deltaText(v)}`];
  });
}
