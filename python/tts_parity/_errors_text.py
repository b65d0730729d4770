"""The one line an error is reported as (CLIs, capture refusals, export failures)."""

from __future__ import annotations

__all__ = ["first_line"]


def first_line(error: BaseException, *, original: bool = False, with_type: bool = True) -> str:
    """`TypeName: first line of the message` (the type name alone for an empty message).

    Args:
        error: the exception.
        original: report the error this one was raised while handling, back to the first (CUDA's capture_end()
            raises its own error over the body's, which is the one to report), unless it was raised `from` another.
        with_type: prefix the exception's type name.
    """
    while original and error.__context__ is not None and error.__cause__ is None:
        error = error.__context__
    lines = str(error).strip().splitlines()
    if not lines:
        return type(error).__name__
    return f"{type(error).__name__}: {lines[0]}" if with_type else lines[0]
