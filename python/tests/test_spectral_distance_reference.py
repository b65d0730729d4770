"""`parity compare-wav`'s log-spectral distance and mel-cepstral distortion against a numpy reference written
here from the definition in docs/report-format.md (not from the TypeScript code): periodic Hann frames of
2^round(log2(0.04·fs)) samples, hop half a frame, power normalised by (Σw)², each side's bins floored at its
loudest bin over the compared frames − 80 dB (and at 1e-12), every frame counted; MCD over 80 HTK-mel
triangles, ½·ln of the band power, c_n = (1/M)·Σ_m L_m·cos(πn(m+½)/M), n = 1..24.

Tolerance 1e-4 dB: the CLI's FFT is float32 (PFFFT, relative error ~1.5e-6 of a frame's largest bin), the
reference float64; bins just above an 80 dB floor carry that error up to ~0.1 dB each, and the per-frame RMS
over 513+ bins and the mean over frames bring it far below: ≤ 3e-7 dB measured here on these pairs."""

import json
import math
from pathlib import Path

import numpy as np

from conftest import REPO_ROOT
from optional_modules import scipy_wavfile
from parity_cli import run_parity

wavfile = scipy_wavfile()

SAMPLES = Path(REPO_ROOT) / "assets" / "samples"
TOLERANCE_DB = 1e-4
DYNAMIC_RANGE_DB = 80.0
MEL_BANDS, ORDER = 80, 24


def frame_size(fs):
    return max(32, 2 ** round(math.log2(0.04 * fs)))


def power_frames(x, n):
    """Power spectra (frames × bins) of x: periodic Hann, hop n/2, a signal shorter than n is one zero-padded frame."""
    w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)
    hop = n // 2
    if len(x) < n:
        frames = [np.pad(x, (0, n - len(x)))]
    else:
        frames = [x[i * hop : i * hop + n] for i in range((len(x) - n) // hop + 1)]
    return np.abs(np.fft.rfft(np.stack(frames) * w, axis=1)) ** 2 / w.sum() ** 2


def floored(p):
    return np.maximum(p, max(1e-12, p.max() * 10 ** (-DYNAMIC_RANGE_DB / 10)))


def mel_weights(n, fs):
    """80 triangular HTK-mel bands from 0 Hz to fs/2 (peak 1); a band narrower than one bin takes the bin nearest
    its centre."""

    def hz_to_mel(f):
        return 2595 * np.log10(1 + f / 700)

    def mel_to_hz(m):
        return 700 * (10 ** (m / 2595) - 1)

    bins = n // 2 + 1
    edges = mel_to_hz(hz_to_mel(fs / 2) * np.arange(MEL_BANDS + 2) / (MEL_BANDS + 1))
    bin_hz = fs / n
    weights = np.zeros((MEL_BANDS, bins))
    for m in range(MEL_BANDS):
        lo, mid, hi = edges[m : m + 3]
        first, last = math.ceil(lo / bin_hz), min(bins - 1, math.floor(hi / bin_hz))
        if last < first:
            weights[m, min(bins - 1, round(mid / bin_hz))] = 1
            continue
        f = np.arange(first, last + 1) * bin_hz
        weights[m, first : last + 1] = np.maximum(0, np.where(f <= mid, (f - lo) / (mid - lo), (hi - f) / (hi - mid)))
    return weights


def reference(a, b, fs):
    """(LSD, MCD) in dB of a[i] against b[i] over the common length."""
    length = min(len(a), len(b))
    n = frame_size(fs)
    pa, pb = floored(power_frames(a[:length], n)), floored(power_frames(b[:length], n))
    lsd = np.mean(np.sqrt(np.mean((10 * np.log10(pa / pb)) ** 2, axis=1)))
    weights = mel_weights(n, fs)
    dlog = 0.5 * np.log(pa @ weights.T) - 0.5 * np.log(pb @ weights.T)
    m = np.arange(MEL_BANDS)
    dct = np.cos(np.pi * np.outer(np.arange(1, ORDER + 1), m + 0.5) / MEL_BANDS) / MEL_BANDS
    dc = dlog @ dct.T
    mcd = np.mean(10 / np.log(10) * np.sqrt(2 * np.sum(dc**2, axis=1)))
    return lsd, mcd


def read(path):
    rate, x = wavfile.read(path)
    return rate, (x / 32768.0 if x.dtype == np.int16 else x).astype(np.float64)


def compare_wav(a, b):
    run = run_parity("compare-wav", a, b, "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_sample_pair_at_lag_0_and_aligned():
    # B = A 37 samples late, × 0.8, plus white noise 60 dB below the speech's RMS (scripts/make-samples.sh).
    a_path, b_path = SAMPLES / "speech.wav", SAMPLES / "speech-quieter-late.wav"
    fs, a = read(a_path)
    _, b = read(b_path)
    m = compare_wav(a_path, b_path)
    lag = m["lagSamples"]
    assert lag == 37
    lsd, mcd = reference(a, b, fs)
    assert abs(m["lsdDb"] - lsd) <= TOLERANCE_DB
    assert abs(m["mcdDb"] - mcd) <= TOLERANCE_DB
    lsd_aligned, mcd_aligned = reference(a, b[lag:], fs)
    assert abs(m["aligned"]["lsdDb"] - lsd_aligned) <= TOLERANCE_DB
    assert abs(m["aligned"]["mcdDb"] - mcd_aligned) <= TOLERANCE_DB
    # Aligned, the pair differs by the gain (|20·log10 0.8| = 1.94 dB in every bin) and noise 60 dB down,
    # which the 80 dB floor keeps from dominating: within 0.1 dB of the gain (5.27 dB before the floor).
    assert abs(m["aligned"]["lsdDb"] - abs(20 * math.log10(0.8))) < 0.1


def test_gain_and_noise_pair_reads_about_the_gain(tmp_path):
    # The pair: B = A at −0.9 dB plus white noise 60 dB below A's RMS, same timing, float32 WAVs.
    fs, a = read(SAMPLES / "speech.wav")
    noise = np.random.default_rng(15).normal(0, 1, len(a))
    noise *= np.sqrt(np.mean(a**2)) * 10 ** (-60 / 20) / np.sqrt(np.mean(noise**2))
    b = a * 10 ** (-0.9 / 20) + noise
    wavfile.write(tmp_path / "a.wav", fs, a.astype(np.float32))
    wavfile.write(tmp_path / "b.wav", fs, b.astype(np.float32))
    m = compare_wav(tmp_path / "a.wav", tmp_path / "b.wav")
    lsd, mcd = reference(a.astype(np.float32).astype(np.float64), b.astype(np.float32).astype(np.float64), fs)
    assert abs(m["lsdDb"] - lsd) <= TOLERANCE_DB
    assert abs(m["mcdDb"] - mcd) <= TOLERANCE_DB
    # The gain reads 0.9 dB in every bin; the noise adds less than 0.1 dB; the spectral shape is unchanged.
    assert 0.9 - 0.01 < m["lsdDb"] < 1.0
    assert m["mcdDb"] < 0.1


def test_48_khz_spectral_change(tmp_path):
    # Another frame size (2048) and mel plan: a low-passed copy, where LSD and MCD are both large.
    fs = 48000
    t = np.arange(fs) / fs
    rng = np.random.default_rng(7)
    a = 0.3 * np.sin(2 * np.pi * 180 * t) * (1 + np.sin(2 * np.pi * 3 * t)) / 2 + 0.01 * rng.normal(size=fs)
    b = np.zeros_like(a)
    for i in range(1, fs):
        b[i] = 0.7 * b[i - 1] + 0.3 * a[i]
    wavfile.write(tmp_path / "a.wav", fs, a.astype(np.float32))
    wavfile.write(tmp_path / "b.wav", fs, b.astype(np.float32))
    m = compare_wav(tmp_path / "a.wav", tmp_path / "b.wav")
    lsd, mcd = reference(a.astype(np.float32).astype(np.float64), b.astype(np.float32).astype(np.float64), fs)
    assert lsd > 3 and mcd > 1
    assert abs(m["lsdDb"] - lsd) <= TOLERANCE_DB
    assert abs(m["mcdDb"] - mcd) <= TOLERANCE_DB
