import { describe, expect, it } from 'vitest';
import { benchPeers, pythonPeers } from '../../../../electron/cli/bench/peer-bench.js';
import { degradedCopy, speechLikeSignal } from '../../../../electron/cli/bench/bench-signals.js';

// The reference implementations beside ours (scripts/analysis-peers.py in the project's .venv; ffmpeg
// on PATH). Without the .venv the Python peers cannot run and this test is skipped (it says why).
const peers = pythonPeers();
const RATE = 24000;

describe.skipIf(typeof peers === 'string')(
  `analysis vs its peers${typeof peers === 'string' ? ` (skipped: ${peers})` : ''}`,
  () => {
    it('loudness, lag and spectral distances agree within the stated tolerances', async () => {
      const long = speechLikeSignal(30, RATE, 2);
      const a = speechLikeSignal(8, RATE, 1);
      const b = degradedCopy(a, 37, 0.8, 1e-4);
      const p = await benchPeers({ long, a, b, sampleRate: RATE }, 1);
      expect(p.errors).toBeUndefined();
      const l = p.loudness;
      // libebur128 derives the same K-weighting for the rate and gates the same 400 ms blocks: ±0.001 LU
      // (seen: 1e-12 LU).
      expect(Math.abs(l.ours.integratedLufs - l.libebur128!.integratedLufs)).toBeLessThan(1e-3);
      // pyloudnorm designs its filters its own way, which departs from BS.1770's at 24 kHz (seen 0.084 LU):
      // ±0.15 LU.
      expect(Math.abs(l.ours.integratedLufs - l.pyloudnorm!.integratedLufs)).toBeLessThan(0.15);
      // LRA: EBU Tech 3342's own tolerance, ±1 LU (libebur128 steps its windows by 1 s, we by 100 ms).
      expect(Math.abs(l.ours.lraLu - l.libebur128!.lraLu)).toBeLessThan(1);
      if (l.ffmpeg) {
        // ffmpeg resamples to 48 kHz and prints one decimal: ±0.1 LU + 0.05 of rounding.
        expect(Math.abs(l.ours.integratedLufs - l.ffmpeg.integratedLufs)).toBeLessThan(0.15);
        expect(Math.abs(l.ours.lraLu - l.ffmpeg.lraLu)).toBeLessThan(1);
      }
      // scipy correlates in float32 too: the same lag, the peak within 1e-5 (seen 1.4e-7).
      expect(p.xcorr.ours.lag).toBe(p.xcorr.scipy!.lag);
      expect(Math.abs(p.xcorr.ours.peak - p.xcorr.scipy!.peak)).toBeLessThan(1e-5);
      // librosa: the same frames, window, floor (power_to_db top_db = 80, amin = 1e-12) and HTK mel
      // filters; its STFT is complex64: ±1e-4 dB (seen 4e-8 dB).
      for (const k of ['atZero', 'aligned'] as const) {
        expect(Math.abs(p.spectral.ours[k].lsdDb - p.spectral.librosa![k].lsdDb)).toBeLessThan(1e-4);
        expect(Math.abs(p.spectral.ours[k].mcdDb - p.spectral.librosa![k].mcdDb)).toBeLessThan(1e-4);
      }
    }, 120_000);
  },
);
