"""The one way `tts_parity` reads JSON Lines (traces, and the files its GPU scripts read back): a line is refused
at the reader's limit (MAX_LINE, from the generated schema: the studio's reader refuses longer lines too) as soon
as its unfinished part passes it, before it is held, so memory is one chunk plus the limit whatever a line's
length. The TypeScript readers do the same (electron/common/text/bounded-lines.ts)."""

from __future__ import annotations

import codecs
import json
import os
from typing import TYPE_CHECKING, Any

from .errors import ParityValueError
from .trace_schema import MAX_LINE

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["bounded_lines", "read_json_lines"]

CHUNK = 1 << 20


def bounded_lines(path: str | os.PathLike[str], limit: int = MAX_LINE) -> Iterator[str]:
    """The lines of a UTF-8 text file (bytes that are not UTF-8 read as U+FFFD), without their "\\n"; the last
    one only when it holds something. A line past `limit` characters raises ParityValueError naming file and line."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    carry: list[str] = []
    held = 0
    n = 1
    with open(path, "rb") as f:
        while True:
            chunk = f.read(CHUNK)
            text = decoder.decode(chunk, final=not chunk)
            start = 0
            while True:
                newline = text.find("\n", start)
                end = len(text) if newline < 0 else newline
                if held + end - start > limit:
                    raise ParityValueError(
                        f"{os.fspath(path)}:{n}: line is longer than {limit} characters (the limit of a trace line; "
                        "docs/trace-format.md)"
                    )
                if newline < 0:
                    carry.append(text[start:])
                    held += len(text) - start
                    break
                carry.append(text[start:newline])
                yield "".join(carry)
                carry, held, n, start = [], 0, n + 1, newline + 1
            if not chunk:
                break
    if held:
        yield "".join(carry)


def read_json_lines(path: str | os.PathLike[str], limit: int = MAX_LINE) -> Iterator[Any]:
    """The JSON value of each non-blank line of `path` (bounded_lines); a line that is not JSON raises
    ParityValueError naming file and line."""
    for n, line in enumerate(bounded_lines(path, limit), start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except ValueError as error:
            raise ParityValueError(f"{os.fspath(path)}:{n}: not valid JSON ({error})") from None
