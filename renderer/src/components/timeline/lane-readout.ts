import { seamNear, seamText } from '../../../../electron/common/draw/seam-marks.js';
import { codeToDb } from '../../../../electron/common/draw/spectrogram.js';
import { verdictCodebook } from '../../../../electron/common/draw/step-delta.js';
import { hoverReadout } from '../../lib/hover-readout.js';
import { audioSelectors } from '../../store/comparison/audio-selectors.js';
import { comparisonSelectors } from '../../store/comparison/comparison-selectors.js';
import type { StudioState } from '../../store/studio-store.js';
import { comparisonSeams } from './lane-painting.js';
import type { LaneSpec } from './lane-specs.js';

/** The hover readout for a point on a lane: time, sample, the lane's values, and a seam when one is near. */
export function readoutText(s: StudioState, lane: LaneSpec, time: number, y: number, x: number): string {
  const c = s.comparison;
  const curves = comparisonSelectors.curves(s);
  let spectrogramDb: number | undefined;
  const spec = lane.lastSpectrogram?.spec;
  if (spec) {
    const col = Math.min(spec.columns - 1, Math.max(0, Math.floor((x * spec.columns) / Math.max(1, s.laneWidth))));
    const bin = Math.min(spec.bins - 1, Math.max(0, Math.floor((1 - y) * spec.bins)));
    spectrogramDb = codeToDb(spec.data[col * spec.bins + bin]);
  }
  const seam = lane.id === 'ab' || lane.id === 'diff' ? seamNear(comparisonSeams(s), s.viewport, Math.max(1, s.laneWidth), x) : undefined;
  const text = hoverReadout(time, lane.id, y, {
    sampleRate: audioSelectors.sampleRate(s),
    a: c?.a?.samples,
    b: c?.b?.samples,
    d: audioSelectors.difference(s).samples,
    frameRate: comparisonSelectors.frameRate(s),
    deltas: comparisonSelectors.stepDeltas(s),
    verdictCodebook: verdictCodebook(comparisonSelectors.divergence(s)),
    codes: comparisonSelectors.codes(s),
    loudness: curves && { hopMs: curves.hopMs, a: curves.shortTermA, b: curves.shortTermB },
    spectrogramDb,
  });
  return seam ? `${text} · ${seamText(seam)}` : text;
}
