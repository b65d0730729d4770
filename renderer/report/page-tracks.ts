import { diffGainFor } from '../../electron/common/report/figures/draw-overlay.js';
import { peaksEnvelope, samplesEnvelope, type TrackEnvelope } from '../../electron/common/report/figures/track-envelope.js';
import type { PageAudio } from '../../electron/common/report/html/report-page-data.js';
import { base64Bytes, pcm16Samples } from './wav-pcm16.js';

/** What the players play and the overlay draws, from the page's embedded audio (or the WAVs beside it). */
export interface PageTracks {
  urls: { a: string; b: string; diff: string };
  envelopes: { a: TrackEnvelope; b: TrackEnvelope; diff: TrackEnvelope };
  /** The gain the difference track is drawn with (A − B at this gain fills its track). */
  diffGain: number;
  durationSec: number;
}

export function pageTracks(audio: PageAudio): PageTracks {
  const durationSec = Math.max(audio.lengths.a, audio.lengths.b) / audio.sampleRate;
  // Embedded and beside, the difference comes scaled to full scale (diff / diffMax); the figure shows it so.
  const diffGain = diffGainFor(audio.diffMax);
  if (!audio.embedded) {
    const { peaks, lengths, files } = audio;
    return {
      urls: files,
      envelopes: { a: peaksEnvelope(peaks.a, lengths.a), b: peaksEnvelope(peaks.b, lengths.b), diff: peaksEnvelope(peaks.diff, lengths.diff) },
      diffGain,
      durationSec,
    };
  }
  const bytes = { a: base64Bytes(audio.wav.a), b: base64Bytes(audio.wav.b), diff: base64Bytes(audio.wav.diff) };
  const url = (b: Uint8Array) => URL.createObjectURL(new Blob([b as BlobPart], { type: 'audio/wav' }));
  return {
    urls: { a: url(bytes.a), b: url(bytes.b), diff: url(bytes.diff) },
    envelopes: { a: samplesEnvelope(pcm16Samples(bytes.a)), b: samplesEnvelope(pcm16Samples(bytes.b)), diff: samplesEnvelope(pcm16Samples(bytes.diff)) },
    diffGain,
    durationSec,
  };
}
