"""Warnings about writers and recorders that were dropped without close(): reported at the line that
created them (a finalizer runs at garbage collection or interpreter exit, far from the user's code)."""

from __future__ import annotations

import sys
import warnings

__all__ = ["creation_site", "warn_at"]


def creation_site(depth: int = 2) -> tuple[str, int]:
    """(filename, lineno) of the user's line `depth` frames above the caller (the constructor's caller)."""
    frame = sys._getframe(depth)
    return frame.f_code.co_filename, frame.f_lineno


def warn_at(site: tuple[str, int], message: str) -> None:
    """A UserWarning attributed to `site` (shown once per site and message, as warnings.warn does)."""
    filename, lineno = site
    warnings.warn_explicit(message, UserWarning, filename, lineno, module="tts_parity")
