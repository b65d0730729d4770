"""Writes the audio of a trace as the studio reads it best: IEEE float32 (format tag 3), mono, the
samples' bytes bit-exact, with the 18-byte fmt chunk and the `fact` chunk a non-PCM WAVE needs (the
58-byte header electron/common/wav/encode-wav.ts, sox and ffmpeg write). numpy only."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

import numpy as np

from ._output_files import write_atomically
from .arrays import as_row
from .errors import ParityValueError

if TYPE_CHECKING:
    import os

    from .arrays import ArrayLike

__all__ = ["check_samples", "write_wav_float32"]


def check_samples(samples: np.ndarray, what: str) -> None:
    """Refuses audio the studio reads as broken: no samples (a WAV whose data chunk is empty is refused by the
    reader) or a finite sample outside [-1, 1] (float audio is full scale at 1; a louder one was not scaled).
    NaN and +-Inf stay: they are what the trace's vocoder counts are for."""
    if samples.size == 0:
        raise ParityValueError(f"{what}: no samples (empty audio); the studio refuses a WAV with an empty data chunk")
    with np.errstate(invalid="ignore"):
        outside = np.flatnonzero(np.isfinite(samples) & (np.abs(samples) > 1))
    if outside.size:
        i = int(outside[0])
        raise ParityValueError(
            f"{what}: sample {i} is {float(samples[i])!r}, outside [-1, 1] ({outside.size} samples are); give float "
            "samples at full scale 1 (divide by the peak or by the integer range)"
        )


def write_wav_float32(path: str | os.PathLike[str], audio: ArrayLike, sample_rate: int, *, force: bool = False) -> str:
    """Writes `audio` atomically to `path` as a float32 WAV (path first, as torchaudio.save and soundfile.write).

    Args:
        path: the WAV file; an existing one is refused unless `force=True`; missing folders are created.
        audio: one channel of float samples in [-1, 1] (NaN and +-Inf kept), at least one, `[samples]` or
            `[1, samples]`; numpy array or tensor.
        sample_rate: samples per second, an int >= 1.
        force: replace an existing file.
    """
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, (int, np.integer)) or sample_rate < 1:
        raise ParityValueError(f"write_wav_float32: sample_rate: expected an integer >= 1, found {sample_rate!r}")
    samples = np.ascontiguousarray(as_row(audio, "write_wav_float32: audio"), dtype="<f4")
    check_samples(samples, "write_wav_float32: audio")
    data = samples.tobytes()
    frames = samples.size
    header = b"".join(
        [
            b"RIFF",
            struct.pack("<I", 4 + (8 + 18) + (8 + 4) + (8 + len(data))),
            b"WAVE",
            b"fmt ",
            struct.pack("<IHHIIHHH", 18, 3, 1, int(sample_rate), int(sample_rate) * 4, 4, 32, 0),
            b"fact",
            struct.pack("<II", 4, frames),
            b"data",
            struct.pack("<I", len(data)),
        ]
    )
    return write_atomically(header + data, path, force=force, what="write_wav_float32: path")
