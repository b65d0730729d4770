"""The talker's text prefill for a byte-level bundle, as electron/engine/text-input.ts: BOS then the UTF-8
bytes; frames = round(characters × framesPerChar) (JavaScript Math.round: halves up), in [1, maxFrames]."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..errors import ParityValueError

if TYPE_CHECKING:
    from .bundle import Manifest


__all__ = ["tokenize"]


def tokenize(text: str, m: Manifest):
    """-> (ids, frames), or a ParityValueError naming the problem."""
    if not text.strip():
        raise ParityValueError("--text: empty; give at least one non-space character")
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ParityValueError(f"--text: not encodable as UTF-8 at character {error.start} ({error.reason})") from None
    if len(data) > m.max_bytes:
        raise ParityValueError(
            f"--text: {len(data)} UTF-8 bytes, over this bundle's limit of {m.max_bytes} (bundle.json text.maxBytes)"
        )
    frames = min(m.max_frames, max(1, math.floor(len(text) * m.frames_per_char + 0.5)))
    return [m.text_bos, *data], frames
