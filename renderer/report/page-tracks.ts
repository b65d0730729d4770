import { buildPeakPyramid, type PeakTier } from '../../electron/common/draw/peaks.js';
import { diffGainFor, type WaveSource } from '../../electron/common/draw/wave.js';
import { BESIDE_BUCKETS } from '../../electron/common/report/html/beside-buckets.js';
import type { PageAudio } from '../../electron/common/report/html/report-page-data.js';
import { base64Bytes, pcm16Samples } from './wav-pcm16.js';

/** What the players play and the waveform figure draws, from the page's embedded audio (or the WAVs beside it). */
export interface PageTracks {
  urls: { a: string; b: string; diff: string };
  sources: { a: WaveSource; b: WaveSource; diff: WaveSource };
  /** The gain the difference is shown with (A − B at this gain fills its lane); its samples come already scaled by it. */
  diffGain: number;
  durationSec: number;
}

/**
 * A track drawn from its embedded envelope (computePeaks): max/min pairs as the one tier of a pyramid,
 * or, for a track short enough to have been kept whole, its samples.
 */
function envelopeSource(peaks: number[], length: number, total: number, sampleRate: number): WaveSource {
  const values = Float32Array.from(peaks);
  if (length <= BESIDE_BUCKETS) return { samples: values, tiers: buildPeakPyramid(values, total), total, sampleRate };
  const tier: PeakTier = { peaks: values, buckets: values.length / 2 };
  return { samples: new Float32Array(0), tiers: [tier], total, sampleRate };
}

export function pageTracks(audio: PageAudio): PageTracks {
  const total = Math.max(audio.lengths.a, audio.lengths.b);
  const durationSec = total / audio.sampleRate;
  // Embedded and beside, the difference comes scaled to full scale (diff / diffMax); the figure shows it so.
  const diffGain = diffGainFor(audio.diffMax);
  if (!audio.embedded) {
    const { peaks, lengths, files } = audio;
    const source = (p: number[], n: number) => envelopeSource(p, n, total, audio.sampleRate);
    return { urls: files, sources: { a: source(peaks.a, lengths.a), b: source(peaks.b, lengths.b), diff: source(peaks.diff, lengths.diff) }, diffGain, durationSec };
  }
  const bytes = { a: base64Bytes(audio.wav.a), b: base64Bytes(audio.wav.b), diff: base64Bytes(audio.wav.diff) };
  const url = (b: Uint8Array) => URL.createObjectURL(new Blob([b as BlobPart], { type: 'audio/wav' }));
  // As the studio draws its lanes: the samples and their peak pyramid over the longer take.
  const source = (b: Uint8Array): WaveSource => {
    const samples = pcm16Samples(b);
    return { samples, tiers: buildPeakPyramid(samples, total), total, sampleRate: audio.sampleRate };
  };
  return { urls: { a: url(bytes.a), b: url(bytes.b), diff: url(bytes.diff) }, sources: { a: source(bytes.a), b: source(bytes.b), diff: source(bytes.diff) }, diffGain, durationSec };
}
