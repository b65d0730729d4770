import { maxAbs } from '../../common/analysis/levels.js';
import { computePeaks } from '../../common/draw/peaks.js';
import { diffGainFor } from '../../common/draw/wave.js';
import { BESIDE_BUCKETS } from '../../common/report/html/beside-buckets.js';
import type { PageAudio } from '../../common/report/html/report-page-data.js';
import { encodeWav } from '../../common/wav/encode-wav.js';

/** The takes and their difference, as the fixture's WAVs hold them. */
export interface ReportAudio {
  a: Float32Array;
  b: Float32Array;
  /** A − B over the common length. */
  diff: Float32Array;
  sampleRate: number;
}

/**
 * The most 16-bit PCM report.html embeds (A, B and the difference together): 32 MiB, about 3.9 minutes
 * per track of 24 kHz mono, a page of about 45 MB once base64-encoded. Past it the page plays the
 * fixture's own WAVs beside it and draws embedded envelopes (docs/report-format.md).
 */
export const EMBED_LIMIT_BYTES = 32 * 1024 * 1024;


/** The difference at full scale (16 bits keep its shape however small it is); the page plays it at `diffMax`. */
function scaled(x: Float32Array, gain: number): Float32Array {
  if (gain === 1) return x;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = x[i] * gain;
  return out;
}

/** The page's envelope of a track (computePeaks), at four decimals: a 1 px waveform needs no more, and the page stays small. */
function besidePeaks(x: Float32Array): number[] {
  return Array.from(computePeaks(x, BESIDE_BUCKETS), (v) => Math.round(v * 1e4) / 1e4);
}

export function pageAudio(audio: ReportAudio, loudnessDeltaLU: number | undefined, limitBytes = EMBED_LIMIT_BYTES): PageAudio {
  const { a, b, diff, sampleRate } = audio;
  const diffMax = maxAbs(diff);
  const gain = diffGainFor(diffMax);
  const common = {
    sampleRate,
    lengths: { a: a.length, b: b.length, diff: diff.length },
    diffMax: Number.isFinite(diffMax) ? diffMax : 0,
    loudnessDeltaLU: typeof loudnessDeltaLU === 'number' && Number.isFinite(loudnessDeltaLU) ? loudnessDeltaLU : null,
  };
  const pcmBytes = 2 * (a.length + b.length + diff.length);
  if (pcmBytes <= limitBytes) {
    const base64 = (x: Float32Array) => Buffer.from(encodeWav([x], sampleRate, 'pcm16')).toString('base64');
    return { ...common, embedded: true, wav: { a: base64(a), b: base64(b), diff: base64(scaled(diff, gain)) } };
  }
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return {
    ...common,
    embedded: false,
    note: `The audio (${mib(pcmBytes)} as 16-bit PCM) is past this page's embedding limit of ${mib(limitBytes)}: the players play a.wav, b.wav and diff.wav from this page's folder, and the waveforms are drawn from embedded envelopes.`,
    files: { a: 'a.wav', b: 'b.wav', diff: 'diff.wav' },
    peaks: { a: besidePeaks(a), b: besidePeaks(b), diff: besidePeaks(scaled(diff, gain)) },
  };
}
