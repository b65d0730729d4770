"""Writes the audio of a trace as the studio reads it best: IEEE float32 (format tag 3), mono, the
samples' bytes bit-exact, with the 18-byte fmt chunk and the `fact` chunk a non-PCM WAVE needs (the
58-byte header electron/common/wav/encode-wav.ts, sox and ffmpeg write). numpy only."""

import os
import struct

import numpy as np

from .arrays import as_row


def write_wav_float32(path, audio, sample_rate):
    """Writes `audio` (one channel: 1-D, or [1, N]; numpy array or tensor) atomically to `path`."""
    samples = np.ascontiguousarray(as_row(audio, "audio"), dtype="<f4")
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
    write_atomically(path, header + data)


def write_atomically(path, payload):
    """Writes bytes to a temporary name beside `path`, then renames it over `path` (no half-written file)."""
    path = os.fspath(path)
    temporary = f"{path}.tmp-{os.getpid()}"
    with open(temporary, "wb") as f:
        f.write(payload)
    os.replace(temporary, path)
