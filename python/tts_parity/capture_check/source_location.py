"""Where in the user's code an op was called from.

An aten op seen by the dispatch probe sits under many frames: ours (the probe), torch's (nn.Module.__call__,
functional, _tensor_str, the dispatch machinery) and the user's. The line a person has to change is the
innermost frame outside torch and outside this package, so that is the one reported.
"""

from __future__ import annotations

import linecache
import os
import sys
from typing import TYPE_CHECKING

import torch

if TYPE_CHECKING:
    import types

__all__ = ["is_internal", "source_line", "user_location"]


_INTERNAL_DIRS = (
    os.path.dirname(os.path.abspath(torch.__file__)) + os.sep,
    os.path.dirname(os.path.abspath(__file__)) + os.sep,
)
_is_internal_cache: dict[str, bool] = {}


def is_internal(filename: str) -> bool:
    """True for files of torch and of this package."""
    internal = _is_internal_cache.get(filename)
    if internal is None:
        internal = os.path.abspath(filename).startswith(_INTERNAL_DIRS)
        _is_internal_cache[filename] = internal
    return internal


def user_location() -> tuple[str, int]:
    """(filename, lineno) of the innermost calling frame outside torch and this package; ("<unknown>", 0) if none."""
    frame: types.FrameType | None = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not is_internal(filename):
            return filename, frame.f_lineno
        frame = frame.f_back
    return "<unknown>", 0


def source_line(filename: str, lineno: int) -> str:
    """The stripped text of that line, or "" when the file cannot be read (e.g. code typed at a prompt)."""
    return linecache.getline(filename, lineno).strip()
