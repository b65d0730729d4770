"""Reference implementations beside ours, for `parity bench` (electron/cli/bench/peer-bench.ts).

Reads a job (JSON on stdin) naming raw float32 mono files, runs each peer on them and prints one JSON
object: each peer's values and its median time in this process (after one warm-up run), so Python's
start-up and imports are not counted; ffmpeg is timed by the Node side as a whole process.

Peers:
- loudness: libebur128 through pyebur128 (integrated in MODE_I alone; LRA in MODE_I | MODE_LRA),
  pyloudnorm (integrated; it has no LRA);
- xcorr: scipy.signal.correlate(b, a, mode="full", method="fft"), lag = argmax |r| within ±maxLag;
- spectral: librosa.stft (center=False, periodic Hann, the same frames as ours), power / (Σw)²,
  librosa.power_to_db(ref=1, amin=1e-12, top_db=80) (the same floor as ours), LSD; mel power by
  librosa.filters.mel(htk=True, norm=None, fmin=0, fmax=fs/2, 80 bands), ½·ln, DCT-II / (2·80), MCD
  over c1..c24.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

CPU: dict[str, float] = {}


def timed(runs: int, work: Callable[[], Any], name: str = "") -> tuple[Any, float]:
    """Median wall ms of `runs` calls after a warm-up; the median CPU ms (process_time) goes to CPU[name]."""
    value = work()
    times = []
    cpu = []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), time.process_time()
        value = work()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - cpu_start) * 1000)
    CPU[name] = float(np.median(cpu))
    return value, float(np.median(times))


def read(path: str) -> np.ndarray:
    return np.fromfile(path, dtype="<f4")


def libebur128_version(v: Any) -> str:
    return v if isinstance(v, str) else ".".join(map(str, v))


def loudness(job: dict[str, Any], runs: int) -> dict[str, Any]:
    import pyebur128 as eb
    import pyloudnorm

    x = read(job["signal"]).astype(np.float64)
    rate = job["sampleRate"]

    def ebur128(mode: int) -> Any:
        state = eb.R128State(1, rate, mode)
        state.add_frames(x, len(x))
        return state

    def integrated() -> float:
        return eb.get_loudness_global(ebur128(eb.MeasurementMode.MODE_I))

    def with_range() -> tuple[float, float]:
        state = ebur128(eb.MeasurementMode.MODE_I | eb.MeasurementMode.MODE_LRA)
        return eb.get_loudness_global(state), eb.get_loudness_range(state)

    lufs, integrated_ms = timed(runs, integrated, "libebur128")
    (_, lra), range_ms = timed(runs, with_range, "libebur128WithLra")
    meter = pyloudnorm.Meter(rate)
    pln, pln_ms = timed(
        max(1, runs // 2), lambda: meter.integrated_loudness(x), "pyloudnorm"
    )
    return {
        "libebur128": {
            "integratedLufs": lufs,
            "integratedMs": integrated_ms,
            "integratedCpuMs": CPU["libebur128"],
            "lraLu": lra,
            "integratedAndLraMs": range_ms,
            "integratedAndLraCpuMs": CPU["libebur128WithLra"],
            "version": libebur128_version(eb.get_libebur128_version()),
        },
        "pyloudnorm": {
            "integratedLufs": float(pln),
            "integratedMs": pln_ms,
            "integratedCpuMs": CPU["pyloudnorm"],
        },
    }


def xcorr(job: dict[str, Any], runs: int) -> dict[str, Any]:
    from scipy.signal import correlate

    a, b = read(job["a"]), read(job["b"])
    max_lag = job["maxLag"]

    def work() -> tuple[int, float]:
        r = correlate(b, a, mode="full", method="fft")
        mid = len(a) - 1  # r[mid + τ] = Σ a[i]·b[i + τ]
        window = r[mid - max_lag : mid + max_lag + 1]
        k = int(np.argmax(np.abs(window)))
        lag = k - max_lag
        peak = float(window[k]) / float(
            np.sqrt(np.dot(a.astype(np.float64), a) * np.dot(b.astype(np.float64), b))
        )
        return lag, peak

    (lag, peak), ms = timed(runs, work, "scipy")
    return {"scipy": {"lag": lag, "peak": peak, "ms": ms, "cpuMs": CPU["scipy"]}}


def spectral(job: dict[str, Any], runs: int) -> dict[str, Any]:
    import librosa
    import scipy.fft

    a, b = read(job["a"]), read(job["b"])
    rate, size, lag = job["sampleRate"], job["frameSize"], job["lag"]
    hop = size // 2
    window = librosa.filters.get_window("hann", size, fftbins=True)
    norm = float(np.sum(window)) ** 2
    mel = librosa.filters.mel(
        sr=rate, n_fft=size, n_mels=80, fmin=0.0, fmax=rate / 2, htk=True, norm=None
    )

    def distances(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
        sx = (
            np.abs(
                librosa.stft(x, n_fft=size, hop_length=hop, window="hann", center=False)
            )
            ** 2
            / norm
        )
        sy = (
            np.abs(
                librosa.stft(y, n_fft=size, hop_length=hop, window="hann", center=False)
            )
            ** 2
            / norm
        )
        dx = librosa.power_to_db(sx, ref=1.0, amin=1e-12, top_db=80.0)
        dy = librosa.power_to_db(sy, ref=1.0, amin=1e-12, top_db=80.0)
        lsd = float(np.mean(np.sqrt(np.mean((dx - dy) ** 2, axis=0))))
        lx = 0.5 * np.log(mel @ (10.0 ** (dx / 10)))
        ly = 0.5 * np.log(mel @ (10.0 ** (dy / 10)))
        c = scipy.fft.dct(lx - ly, type=2, axis=0) / (2 * 80)
        mcd = float(
            np.mean(10 / np.log(10) * np.sqrt(2 * np.sum(c[1:25] ** 2, axis=0)))
        )
        return {"lsdDb": lsd, "mcdDb": mcd}

    def work() -> dict[str, Any]:
        n = min(len(a), len(b))
        at_zero = distances(a[:n], b[:n])
        start = max(0, -lag)
        overlap = min(len(a), len(b) - lag) - start
        aligned = distances(
            a[start : start + overlap], b[start + lag : start + lag + overlap]
        )
        return {"atZero": at_zero, "aligned": aligned}

    value, ms = timed(runs, work, "librosa")
    return {
        "librosa": {
            **value,
            "ms": ms,
            "cpuMs": CPU["librosa"],
            "version": librosa.__version__,
        }
    }


def main() -> None:
    job = json.load(sys.stdin)
    runs = int(job.get("runs", 3))
    out: dict[str, Any] = {}
    for name, fn in (("loudness", loudness), ("xcorr", xcorr), ("spectral", spectral)):
        if name in job:
            try:
                out[name] = fn(job[name], runs)
            except Exception as error:  # noqa: BLE001 (a missing or failing peer is reported, not fatal)
                out[name] = {"error": f"{type(error).__name__}: {error}"}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
